import type { Page } from '@playwright/test'
import { getSiteSettings } from '../../app/modules/settings/settings.queries.server'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const NAV = [
  { name: 'Home', href: '/' },
  { name: 'About Us', href: '/about' },
  { name: 'Support', href: '/support' },
  { name: 'Calendar', href: '/calendar' },
  { name: 'News', href: '/news' },
  { name: 'Photos', href: '/photos' },
  { name: 'Marketplace', href: '/marketplace' },
  { name: 'Contact', href: '/contact' },
]
const PURPLE = 'rgb(109, 40, 217)'
const WHITE = 'rgb(255, 255, 255)'
const TRANSPARENT = 'rgba(0, 0, 0, 0)'
/** --color-brand-deep */
const DEEP_PURPLE = 'rgb(46, 16, 101)'

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' })
}

function menuButton(page: Page) {
  return mainNav(page).getByText('Menu', { exact: true })
}

async function headerLook(page: Page) {
  return page.locator('header.site-header').evaluate((el) => {
    const style = getComputedStyle(el)
    return { background: style.backgroundColor, shadow: style.boxShadow }
  })
}

test('the navigation links every page and highlights the current one', async ({ page }) => {
  await page.goto('/contact')
  await menuButton(page).click()
  const links = mainNav(page).getByRole('link')
  await expect(links).toHaveText(NAV.map((l) => l.name))
  for (const { name, href } of NAV) {
    const link = mainNav(page).getByRole('link', { name, exact: true })
    await expect(link).toHaveAttribute('href', href)
    if (name === 'Contact') await expect(link).toHaveAttribute('aria-current', 'page')
    else await expect(link).not.toHaveAttribute('aria-current')
  }
})

test('every link of the header and the footer leads to a page that exists', async ({ page }) => {
  await page.goto('/')
  const links = page.getByRole('banner').or(page.getByRole('contentinfo')).getByRole('link')
  const hrefs = new Set<string>()
  for (const link of await links.all()) {
    const href = await link.getAttribute('href')
    if (href?.startsWith('/')) hrefs.add(href)
  }
  expect(hrefs.size).toBeGreaterThan(0)
  for (const href of hrefs) {
    const response = await page.request.get(href)
    expect(response.status(), href).toBe(200)
  }
})

test('on a phone the menu opens, and closes when a link is chosen', async ({ page }) => {
  await page.goto('/contact')
  await waitForHydration(page)
  const about = mainNav(page).getByRole('link', { name: 'About Us', exact: true })
  await expect(about).toBeHidden()
  await menuButton(page).click()
  await expect(about).toBeVisible()
  await menuButton(page).click()
  await expect(about).toBeHidden()

  await menuButton(page).click()
  await about.click()
  await expect(page).toHaveURL(/\/about$/)
  await expect(about).toBeHidden()
  await menuButton(page).click()
  await expect(about).toHaveAttribute('aria-current', 'page')
  await page.keyboard.press('Escape')
  await expect(about).toBeHidden()
})

test('a link opens its page inside the app, keeps the history, and a modified click is left to the browser', async ({ page }) => {
  await page.goto('/contact')
  await waitForHydration(page)
  // A mark on the window survives a navigation inside the app, and is gone after a page load.
  await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true))
  await menuButton(page).click()
  await mainNav(page).getByRole('link', { name: 'News', exact: true }).click()
  await expect(page).toHaveURL(/\/news$/)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('News')
  expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true)
  await menuButton(page).click()
  await expect(mainNav(page).getByRole('link', { name: 'News', exact: true })).toHaveAttribute('aria-current', 'page')
  await expect(mainNav(page).getByRole('link', { name: 'Home', exact: true })).not.toHaveAttribute('aria-current')
  await page.goBack()
  await expect(page).toHaveURL(/\/contact$/)
  expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true)

  // Shift-click opens a new window and leaves this page where it is.
  const opened = page.context().waitForEvent('page')
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: 'About Us', exact: true })
    .click({ modifiers: ['Shift'] })
  await (await opened).close()
  await expect(page).toHaveURL(/\/contact$/)
})

test('on a phone the open menu closes on a tap outside it, and on Escape', async ({ page }) => {
  await page.goto('/contact')
  await waitForHydration(page)
  const about = mainNav(page).getByRole('link', { name: 'About Us', exact: true })
  await menuButton(page).click()
  await expect(about).toBeVisible()
  await page.mouse.click(10, 780)
  await expect(about).toBeHidden()

  await menuButton(page).click()
  await expect(about).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(about).toBeHidden()
  await expect(menuButton(page)).toBeFocused()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the menu still opens and leads to the chosen page', async ({ page }) => {
    await page.goto('/contact')
    await menuButton(page).click()
    await mainNav(page).getByRole('link', { name: 'Support', exact: true }).click()
    await expect(page).toHaveURL(/\/support$/)
    await expect(mainNav(page).getByRole('link', { name: 'Support', exact: true })).toBeHidden()
  })

  test('the bar over the hero is solid, so it never lies over the text once scrolled', async ({ page }) => {
    for (const path of ['/', '/about', '/support']) {
      await page.goto(path)
      await page.evaluate(() => window.scrollTo(0, 600))
      const look = await headerLook(page)
      expect(look.background, path).not.toBe(TRANSPARENT)
    }
  })
})

test('the bar is transparent over the hero, purple elsewhere, and white with a shadow once scrolled', async ({
  page,
  signIn,
}) => {
  // A page with a hero that ships its scripts: the bar follows the scrolling there. A visitor's
  // pages with a hero ship none (decision 032); a signed-in user's do.
  await signIn()
  await page.goto('/support')
  const header = page.locator('header.site-header')
  await expect(header).toHaveClass(/site-header-transparent/)
  expect((await headerLook(page)).background).toBe(TRANSPARENT)

  await page.evaluate(() => window.scrollTo(0, 15))
  await expect(header).toHaveClass(/site-header-transparent/)

  await page.evaluate(() => window.scrollTo(0, 300))
  await expect(header).toHaveClass(/site-header-scrolled/)
  await expect.poll(() => headerLook(page)).toMatchObject({ background: WHITE })
  expect((await headerLook(page)).shadow).not.toBe('none')

  await page.evaluate(() => window.scrollTo(0, 0))
  await expect(header).toHaveClass(/site-header-transparent/)

  await page.goto('/contact')
  await expect(header).toHaveClass(/site-header-solid/)
  await expect.poll(async () => (await headerLook(page)).background).toBe(PURPLE)
  await page.evaluate(() => window.scrollTo(0, 300))
  await expect(header).toHaveClass(/site-header-scrolled/)
  await expect.poll(async () => (await headerLook(page)).background).toBe(WHITE)
})

test('on a page sent without scripts the bar over the hero is solid, so it never lies over the text', async ({ page }) => {
  for (const path of ['/', '/about', '/services', '/support']) {
    await page.goto(path)
    await page.evaluate(() => window.scrollTo(0, 600))
    expect((await headerLook(page)).background, path).not.toBe(TRANSPARENT)
  }
})

test('before its scripts start, a page that ships them turns its bar over the hero solid once scrolled', async ({
  page,
  signIn,
}) => {
  // A signed-in user's pages ship scripts: on a slow phone the page is read, and scrolled, before
  // they have come and React can turn the bar white.
  await signIn()
  const header = page.locator('header.site-header')
  for (const path of ['/', '/support']) {
    // The page's scripts are held back until the bar has been looked at.
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await released
      await route.continue()
    })
    try {
      // The page's module scripts hold up its load events: it is looked at as soon as it is there.
      await page.goto(path, { waitUntil: 'commit' })
      await expect(header).toHaveClass(/site-header-transparent/)
      expect((await headerLook(page)).background, path).toBe(TRANSPARENT)
      await page.evaluate(() => window.scrollTo(0, 600))
      await expect.poll(async () => (await headerLook(page)).background, { message: path }).toBe(DEEP_PURPLE)
      // Still the look React has not changed: the style did it, not the scripts.
      await expect(header).toHaveClass(/site-header-transparent/)
      await page.evaluate(() => window.scrollTo(0, 0))
      await expect.poll(async () => (await headerLook(page)).background, { message: path }).toBe(TRANSPARENT)
    } finally {
      release()
    }
    await waitForHydration(page)
    await page.unrouteAll({ behavior: 'ignoreErrors' })
    // Once React runs, the bar follows the scrolling itself: white, never the deep purple first.
    await page.evaluate(() => window.scrollTo(0, 600))
    await expect(header).toHaveClass(/site-header-scrolled/)
    await expect(header).not.toHaveClass(/site-header-before-scripts/)
    await page.evaluate(() => window.scrollTo(0, 0))
  }
})

test('the footer shows the quick links, the site settings and the current year', async ({ page }) => {
  const settings = await getSiteSettings()
  const year = new Intl.DateTimeFormat('en', { timeZone: settings.timeZone, year: 'numeric' }).format(new Date())
  await page.goto('/contact')
  const footer = page.getByRole('contentinfo')
  const quickLinks = footer.getByRole('navigation', { name: 'Quick Links' }).getByRole('link')
  await expect(quickLinks).toHaveText(['About Us', 'Support Our Mission', 'Calendar', 'Latest News', 'Photo Gallery'])
  for (const [name, href] of [
    ['About Us', '/about'],
    ['Support Our Mission', '/support'],
    ['Calendar', '/calendar'],
    ['Latest News', '/news'],
    ['Photo Gallery', '/photos'],
  ]) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href)
  }
  await expect(footer.getByRole('link', { name: settings.phone })).toHaveAttribute('href', /^tel:\+?\d+$/)
  await expect(footer.getByRole('link', { name: settings.email })).toHaveAttribute('href', `mailto:${settings.email}`)
  await expect(footer.getByRole('link', { name: /Facebook/ })).toHaveAttribute('href', settings.facebookUrl)
  await expect(footer).toContainText(settings.footerText)
  await expect(footer).toContainText('since 2008')
  await expect(footer).toContainText(`© ${year} ${settings.organisationName}`)
})

test('an unknown address shows the branded 404 page inside the site layout', async ({ page }) => {
  const response = await page.goto('/no-such-page/at-all')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  await expect(mainNav(page)).toBeVisible()
  await expect(page.getByRole('contentinfo')).toBeVisible()
  await page.getByRole('link', { name: 'Go to the home page' }).click()
  await expect(page).toHaveURL(/\/$/)
})

test('a toast shown after a redirect appears top-right and closes by itself after about 3 seconds', async ({ page, signIn }) => {
  // Note in the page when a toast enters and leaves the document, to time it without sleeping.
  await page.addInitScript(() => {
    const times: { shown?: number; gone?: number } = {}
    Object.assign(window, { toastTimes: times })
    new MutationObserver(() => {
      const present = document.querySelector('[data-sonner-toast]') !== null
      if (present) times.shown ??= performance.now()
      else if (times.shown !== undefined) times.gone ??= performance.now()
    }).observe(document, { childList: true, subtree: true })
  })
  await signIn()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/$/)
  // Keep the pointer off the toast: hovering pauses it.
  await page.mouse.move(0, 600)

  const toaster = page.locator('[data-sonner-toaster]')
  const toast = toaster.getByText('You have been signed out.')
  await expect(toast).toBeVisible()
  await expect(toaster).toHaveAttribute('data-y-position', 'top')
  await expect(toaster).toHaveAttribute('data-x-position', 'right')

  await expect(toast).toBeHidden({ timeout: 10_000 })
  const times = await page.evaluate(() => (window as unknown as { toastTimes: { shown: number; gone: number } }).toastTimes)
  expect(times.gone - times.shown).toBeGreaterThan(2900)
  expect(times.gone - times.shown).toBeLessThan(6000)
})
