import type { Page } from '@playwright/test'
import { DEMO_SITE_SETTINGS } from '../../app/modules/settings/settings.demo'
import { plainPng } from '../fixtures/images'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const ORGANISATION = DEMO_SITE_SETTINGS.organisationName
const PAGES = [
  { path: '/', title: ORGANISATION, heading: 'Transforming Lives Through Compassion and Community Support' },
  { path: '/about', title: `About Us | ${ORGANISATION}`, heading: 'About Us' },
  { path: '/services', title: `Our Services | ${ORGANISATION}`, heading: 'Our Services' },
  { path: '/support', title: `Support Our Mission | ${ORGANISATION}`, heading: 'Support Our Mission' },
  { path: '/impact', title: `Our Impact | ${ORGANISATION}`, heading: 'Our Impact' },
  { path: '/news', title: `Latest News | ${ORGANISATION}`, heading: 'Latest News' },
  { path: '/contact', title: `Contact Us | ${ORGANISATION}`, heading: 'Contact Us' },
]

function main(page: Page) {
  return page.getByRole('main')
}

async function expectHeadings(page: Page, level: number, names: string[]) {
  for (const name of names) await expect(main(page).getByRole('heading', { level, name, exact: true })).toBeVisible()
}

async function expectImpactFigures(page: Page) {
  for (const figure of DEMO_SITE_SETTINGS.impactFigures) {
    const item = main(page)
      .getByRole('list', { name: 'Impact in numbers' })
      .getByRole('listitem')
      .filter({ hasText: figure.label })
    await expect(item.first()).toContainText(figure.value)
  }
}

test('the home page tells the story and links to the other pages', async ({ page }) => {
  await page.goto('/')
  const hero = main(page).locator('.hero')
  await expect(hero.getByRole('heading', { level: 1 })).toHaveText(PAGES[0].heading)
  await expect(hero).toContainText('Since 2008')
  await expect(hero.getByRole('link', { name: 'Support Our Mission' })).toHaveAttribute('href', '/support')
  await expect(hero.getByRole('link', { name: 'Learn About Us' })).toHaveAttribute('href', '/about')

  await expectHeadings(page, 2, ['Our Programmes', 'How We Help', 'Our Impact', 'Help Us Continue Our Work', 'Upcoming Events'])
  await expectHeadings(page, 3, [
    'Cancer Survivor Support Community',
    'Youth Entrepreneurship Training',
    'Community Support',
    'Cancer Support',
    'Youth Development',
    'Family Services',
  ])
  await expect(main(page)).toContainText('young people aged 8-17')
  await expect(main(page)).toContainText('last Saturday of every month')
  await expectImpactFigures(page)
  await expect(main(page).getByRole('link', { name: 'See Our Impact' })).toHaveAttribute('href', '/impact')

  const donation = main(page).getByRole('region', { name: 'Help Us Continue Our Work' })
  await expect(donation.getByRole('link', { name: 'Ways to Give' })).toHaveAttribute('href', '/support')
  await expect(donation.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact')

  // The demo calendar's next occurrences, soonest first, each card leading to its event.
  const events = main(page).getByRole('region', { name: 'Upcoming Events' })
  await expect(events.getByRole('link', { name: 'View Calendar' })).toHaveAttribute('href', '/calendar')
  const cards = events.getByRole('listitem')
  await expect(cards).toHaveCount(8)
  const distribution = cards.filter({ hasText: 'Monthly Food and Clothing Distribution' }).first()
  await expect(distribution).toContainText(/Sat, \w{3} \d{1,2}, 9:00 AM/)
  await expect(distribution.getByRole('link')).toHaveAttribute(
    'href',
    /^\/calendar\/monthly-food-and-clothing-distribution\?date=\d{4}-\d{2}-\d{2}$/,
  )
  const starts = await cards.locator('time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime') ?? ''))
  expect(starts).toEqual([...starts].sort())
  expect(new Date(starts[0]).getTime()).toBeGreaterThan(Date.now() - 60_000)

  // Three products of the youth marketplace, picked at random, each opening its own page.
  const products = main(page).getByRole('region', { name: 'From Our Young Entrepreneurs' })
  await expect(products.getByRole('link', { name: 'View All Items' })).toHaveAttribute('href', '/marketplace')
  await expect(products.getByRole('listitem')).toHaveCount(3)
  for (const link of await products.getByRole('listitem').getByRole('link').all()) {
    await expect(link).toHaveAttribute('href', /^\/marketplace\/[a-z0-9-]+$/)
  }
  // Each product's price shows whole inside its card, under its name (all eight cards drawn to see every one).
  await products.locator('li[hidden]').evaluateAll((cards) => cards.forEach((card) => card.removeAttribute('hidden')))
  const prices = products.locator('li .product-price')
  expect(await prices.count()).toBeGreaterThan(0)
  for (const price of await prices.all()) {
    const card = (await price.locator('xpath=..').boundingBox())!
    const box = (await price.boundingBox())!
    expect(box.height).toBeGreaterThan(0)
    expect(box.y + box.height, (await price.textContent()) ?? '').toBeLessThanOrEqual(card.y + card.height)
  }

  // The gallery's four newest featured items, each opening its own page.
  const moments = main(page).getByRole('region', { name: 'Featured Moments' })
  await expect(moments.getByRole('link', { name: 'View Gallery' })).toHaveAttribute('href', '/photos')
  await expect(moments.getByRole('listitem')).toHaveCount(4)
  await expect(moments.getByRole('link', { name: 'Video: Beach Clean-up Day' })).toHaveAttribute(
    'href',
    '/photos/beach-clean-up-day',
  )

  await hero.getByRole('link', { name: 'Support Our Mission' }).click()
  await expect(page).toHaveURL(/\/support$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support Our Mission')
})

test('on a phone the featured moments go two by two, and an odd last one takes the whole row', async ({ page }) => {
  await page.goto('/')
  const list = main(page).getByRole('region', { name: 'Featured Moments' }).getByRole('list')
  const boxes = async () => {
    const cards = await list.getByRole('listitem').all()
    return Promise.all(cards.map(async (card) => (await card.boundingBox())!))
  }
  const four = await boxes()
  expect(four).toHaveLength(4)
  expect([four[0].y === four[1].y, four[2].y === four[3].y, four[2].y > four[0].y]).toEqual([true, true, true])

  // Three, as when the gallery has only three featured items.
  await list
    .getByRole('listitem')
    .last()
    .evaluate((card) => card.remove())
  const [first, second, third] = await boxes()
  const row = (await list.boundingBox())!
  expect(first.y).toBe(second.y)
  expect(third.y).toBeGreaterThan(first.y)
  expect(Math.round(third.width)).toBe(Math.round(row.width))
})

test('on a small phone the sign-up heading keeps "e-mail" on one line', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/')
  const heading = main(page).getByRole('heading', { level: 2, name: 'Get our e-mail updates' })
  await expect(heading).toBeVisible()
  // The lines the word's letters sit on (a break after its hyphen would give two).
  const lines = await heading.evaluate((element) => {
    const tops = new Set<number>()
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) {
      const text = walker.currentNode as Text
      const start = text.data.indexOf('e-mail')
      for (let i = start; start >= 0 && i < start + 6; i++) {
        const range = document.createRange()
        range.setStart(text, i)
        range.setEnd(text, i + 1)
        tops.add(Math.round(range.getBoundingClientRect().top))
      }
    }
    return tops.size
  })
  expect(lines).toBe(1)
})

test('the about page shows the journey, values, initiatives, outreach and contact persons', async ({ page }) => {
  await page.goto('/about')
  await expectHeadings(page, 2, [
    'Our Journey',
    'Our Values',
    'Key Initiatives',
    'Community Outreach',
    'Contact Persons',
    'Join Us in Making a Difference',
  ])
  await expectHeadings(page, 3, [
    'Compassionate Care',
    'Community Unity',
    'Dedicated Service',
    'Excellence',
    'Cancer Survivor Support Community',
    'Youth Entrepreneurship Training Program',
    'Ministry Director',
  ])
  await expect(main(page)).toContainText('began in 2008')
  await expect(main(page)).toContainText('more than 200 families')
  await expect(main(page)).toContainText('more than 40 survivors')
  await expect(main(page)).toContainText('On the last Saturday of every month')
  // Contact details come from the site settings.
  await expect(main(page).getByRole('link', { name: DEMO_SITE_SETTINGS.phone })).toHaveAttribute('href', 'tel:+12685550100')
  await expect(main(page).getByRole('link', { name: DEMO_SITE_SETTINGS.email })).toHaveAttribute(
    'href',
    `mailto:${DEMO_SITE_SETTINGS.email}`,
  )
  await expect(main(page).getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact')

  // Side by side, each card's way to reach its person sits on the same line, whatever its title's length.
  await page.setViewportSize({ width: 1280, height: 900 })
  const messageLinks = main(page)
    .getByRole('region', { name: 'Contact Persons' })
    .getByRole('link', { name: /^Send a message/ })
  await expect(messageLinks).toHaveCount(3)
  const tops = await messageLinks.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)))
  expect(new Set(tops).size).toBe(1)
})

test('the services page shows six services, the impact numbers and both buttons', async ({ page }) => {
  await page.goto('/services')
  await expectHeadings(page, 3, [
    'Monthly Distribution',
    'Educational Support',
    'Medical Assistance',
    'Housing Support',
    'Community Counseling',
    'Special Events',
  ])
  await expectImpactFigures(page)
  const actions = main(page).getByRole('region', { name: 'Need Help or Want to Help?' })
  await expect(actions.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact')
  await expect(actions.getByRole('link', { name: 'Support Our Mission' })).toHaveAttribute('href', '/support')
})

test.describe('the support page', () => {
  test('shows the ways to help, the donation link and the giving notes', async ({ page }) => {
    await page.goto('/support')
    await expectHeadings(page, 3, ['Material Donations', 'Financial Support', 'Volunteering'])
    const donate = main(page).getByRole('link', { name: /Donate Now/ })
    await expect(donate).toHaveAttribute('href', DEMO_SITE_SETTINGS.donationUrl)
    await expect(donate).toHaveAttribute('target', '_blank')
    await expect(donate).toHaveAttribute('rel', 'noopener noreferrer')
    await expect(main(page)).toContainText('Please use "Dues" or "Donation" as the transaction reference.')
    await expect(main(page)).toContainText('Please keep your receipt')
    await expect(main(page).getByRole('region', { name: 'Monthly Distribution' })).toContainText('last Saturday of every month')
    await expect(main(page)).toContainText('$35.00')
    await expect(main(page).getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact')
  })

  test('lists every bank account from the settings and copies an account number, with no script fetched', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    const scripts: string[] = []
    page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()))
    await page.goto('/support')
    const bank = main(page).getByRole('region', { name: 'Bank Transfer' })
    for (const account of DEMO_SITE_SETTINGS.bankAccounts) {
      const card = bank.getByRole('listitem').filter({ has: page.getByRole('heading', { name: account.label }) })
      await expect(card).toContainText(account.bank)
      await expect(card).toContainText(account.accountName)
      await expect(card).toContainText(account.accountNumber)
    }
    const [general] = DEMO_SITE_SETTINGS.bankAccounts
    await bank.getByRole('button', { name: `Copy the ${general.label} account number` }).click()
    await expect(bank.getByRole('button', { name: `Copied the ${general.label} account number` })).toBeVisible()
    await expect(bank.getByRole('status').first()).toHaveText(`Copied the ${general.label} account number`)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(general.accountNumber)
    // The few lines after each button did it: the page asks for no script and React never ran.
    await page.waitForTimeout(2500)
    expect(scripts).toEqual([])
    expect(await page.evaluate(() => '__reactRouterDataRouter' in window)).toBe(false)
    // It offers to copy again.
    await expect(bank.getByRole('button', { name: `Copy the ${general.label} account number` })).toBeVisible({ timeout: 5000 })
  })

  test('when the browser refuses to copy, the page says so and what to do instead, until the next try', async ({ page }) => {
    await page.addInitScript(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('Refused', 'NotAllowedError'))
    })
    await page.goto('/support')
    const bank = main(page).getByRole('region', { name: 'Bank Transfer' })
    const [general] = DEMO_SITE_SETTINGS.bankAccounts
    const button = bank.getByRole('button', { name: `Copy the ${general.label} account number` })
    await button.click()
    const refusal = bank.getByText('Could not copy: please select the number instead')
    await expect(refusal).toBeVisible()
    await expect(button).toHaveText('Copy')
    // Still there after the three seconds a success is shown for.
    await page.waitForTimeout(3500)
    await expect(refusal).toBeVisible()
  })

  test('a number copied before React takes the page over stays copied, and React takes it over without an error', async ({
    page,
    context,
    signIn,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    // A signed-in user's page ships the site's scripts: they are held back until the copy is done.
    await signIn()
    let releaseScripts = () => {}
    const held = new Promise<void>((resolve) => (releaseScripts = resolve))
    await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
      await held
      await route.continue()
    })
    const problems: string[] = []
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()))
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto('/support')
    const bank = main(page).getByRole('region', { name: 'Bank Transfer' })
    const [general] = DEMO_SITE_SETTINGS.bankAccounts
    await bank.getByRole('button', { name: `Copy the ${general.label} account number` }).click()
    await expect(bank.getByRole('button', { name: `Copied the ${general.label} account number` })).toBeVisible()
    expect(await page.evaluate(() => '__reactRouterDataRouter' in window)).toBe(false)
    releaseScripts()
    await waitForHydration(page)
    await expect(bank.getByRole('status').first()).toHaveText(`Copied the ${general.label} account number`)
    expect(problems).toEqual([])
  })

  test('the Copy buttons work on the support page rendered in the browser too', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto('/news')
    await waitForHydration(page)
    await page.getByRole('contentinfo').getByRole('link', { name: 'Support Our Mission' }).click()
    await expect(page).toHaveURL('/support')
    // React rendered it: the page was not loaded again.
    expect(await page.evaluate(() => '__reactRouterDataRouter' in window)).toBe(true)
    const bank = main(page).getByRole('region', { name: 'Bank Transfer' })
    const last = DEMO_SITE_SETTINGS.bankAccounts.at(-1)!
    await bank.getByRole('button', { name: `Copy the ${last.label} account number` }).click()
    await expect(bank.getByRole('button', { name: `Copied the ${last.label} account number` })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(last.accountNumber)
  })
})

test('the impact page explains every figure', async ({ page }) => {
  await page.goto('/impact')
  await expectHeadings(page, 2, ['What Your Support Makes Possible', 'Be Part of the Next Chapter'])
  for (const figure of DEMO_SITE_SETTINGS.impactFigures) {
    const item = main(page)
      .getByRole('list', { name: 'Impact in numbers' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: figure.label }) })
    await expect(item).toContainText(figure.value)
    await expect(item).toContainText(figure.description)
  }
  await expect(main(page).getByRole('link', { name: 'Support Our Mission' })).toHaveAttribute('href', '/support')
})

test('every page has its own title and social-preview tags with absolute URLs', async ({ page, baseURL }) => {
  const titles = new Set<string>()
  for (const { path, title } of PAGES) {
    await page.goto(path)
    await expect(page).toHaveTitle(title)
    titles.add(await page.title())
    const head = page.locator('head')
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute('content', title)
    await expect(head.locator('meta[name="description"]')).toHaveAttribute('content', /\S{3,}/)
    await expect(head.locator('meta[property="og:image"]')).toHaveAttribute('content', `${baseURL}/social-preview.jpg`)
    await expect(head.locator('meta[property="og:url"]')).toHaveAttribute('content', new URL(path, baseURL).toString())
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute('href', new URL(path, baseURL).toString())
    await expect(head.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')
    await expect(head.locator('meta[name="twitter:title"]')).toHaveAttribute('content', title)
    await expect(head.locator('meta[name="twitter:image"]')).toHaveAttribute('content', `${baseURL}/social-preview.jpg`)
  }
  expect(titles.size).toBe(PAGES.length)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('every page renders, and account numbers are plain selectable text', async ({ page }) => {
    for (const { path, heading } of PAGES) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    }
    await page.goto('/support')
    const bank = main(page).getByRole('region', { name: 'Bank Transfer' })
    for (const account of DEMO_SITE_SETTINGS.bankAccounts) await expect(bank).toContainText(account.accountNumber)
    // A button that cannot work without JavaScript is not shown.
    await expect(bank.getByRole('button', { name: /Copy/ })).toHaveCount(0)
  })

  test('an administrator saves page texts, and the server checks them', async ({ page, signIn }) => {
    await signIn()
    await page.goto('/admin/pages?page=impact')
    const heading = () => page.getByRole('group', { name: 'Closing' }).getByRole('textbox', { name: 'Heading' })
    const save = () => page.getByRole('button', { name: 'Save texts' }).click()

    // Blanks pass the browser's required check; the server trims them and refuses.
    await heading().fill('   ')
    await save()
    await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' })).toContainText('Closing: Heading is required')
    await expect(page.getByRole('group', { name: 'Closing' }).getByText('Heading is required')).toBeVisible()

    await heading().fill('Write the Next Chapter With Us')
    await save()
    await expect(page.getByRole('status').filter({ hasText: 'The Impact page texts are saved.' })).toBeVisible()
    await page.goto('/impact')
    await expect(main(page).getByRole('heading', { level: 2, name: 'Write the Next Chapter With Us' })).toBeVisible()

    // Put the demo text back for the other tests.
    await page.goto('/admin/pages?page=impact')
    await heading().fill('Be Part of the Next Chapter')
    await save()
    await expect(page.getByRole('status').filter({ hasText: 'The Impact page texts are saved.' })).toBeVisible()
  })
})

test('an administrator edits a page text without touching code', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/pages?page=about')
  const form = page.locator('form.page-texts-form')
  const journey = form.getByRole('group', { name: 'Our journey' })
  const heading = journey.getByRole('textbox', { name: 'Heading' })
  await expect(heading).toHaveValue('Our Journey')

  await heading.fill('')
  await page.getByRole('button', { name: 'Save texts' }).click()
  await expect(journey.getByText('Heading is required')).toBeVisible()

  await heading.fill('Our Story Since 2008')
  await page.getByRole('button', { name: 'Save texts' }).click()
  await expect(page.getByText('The About Us page texts are saved.')).toBeVisible()
  await page.goto('/about')
  await expect(main(page).getByRole('heading', { level: 2, name: 'Our Story Since 2008' })).toBeVisible()

  // Put the demo text back for the other tests.
  await page.goto('/admin/pages?page=about')
  await page
    .locator('form.page-texts-form')
    .getByRole('group', { name: 'Our journey' })
    .getByRole('textbox', { name: 'Heading' })
    .fill('Our Journey')
  await page.getByRole('button', { name: 'Save texts' }).click()
  await expect(page.getByText('The About Us page texts are saved.')).toBeVisible()
})

test.describe('a photograph behind the page header', () => {
  // The marketplace's cards fade in one after another; axe must not judge them half-faded.
  test.use({ reducedMotion: 'reduce' })

  test('an administrator puts a photograph behind a page header and takes it away again', async ({ page, signIn }) => {
    await page.goto('/')
    // The demo site shows a photograph behind the home hero, loaded at once and in a phone's size.
    const homePhoto = page.locator('.hero img.hero-image')
    await expect(homePhoto).toHaveAttribute('loading', 'eager')
    await expect(homePhoto).toHaveAttribute('fetchpriority', 'high')
    await expect(page.locator('.hero source[type="image/webp"]')).toHaveAttribute('srcset', /640w/)

    await signIn()
    await page.goto('/admin/pages?page=marketplace')
    const header = page.getByRole('group', { name: 'Page header' })
    await header.getByLabel('Photograph behind the header (optional)').setInputFiles({
      name: 'stall.png',
      mimeType: 'image/png',
      buffer: await plainPng(1600, 900, '#c2410c'),
    })
    await header.getByLabel('Photograph description (optional)').fill('The market stall in the sun')
    await page.getByRole('button', { name: 'Save texts' }).click()
    await expect(page.getByText('The Marketplace page texts are saved.')).toBeVisible()

    await page.goto('/marketplace')
    await expect(page.locator('.hero img.hero-image')).toHaveAttribute('alt', 'The market stall in the sun')

    await page.goto('/admin/pages?page=marketplace')
    await page.getByRole('group', { name: 'Page header' }).getByLabel('Remove the current image').check()
    await page.getByRole('button', { name: 'Save texts' }).click()
    await expect(page.getByText('The Marketplace page texts are saved.')).toBeVisible()
    await page.goto('/marketplace')
    await expect(page.getByRole('heading', { level: 1, name: 'Youth Marketplace' })).toBeVisible()
    await expect(page.locator('.hero img.hero-image')).toHaveCount(0)
  })
})
