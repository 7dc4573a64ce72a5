import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { listProductsForAdmin } from '../../app/modules/marketplace/marketplace.queries.server'
import { deleteProduct } from '../../app/modules/marketplace/marketplace.service.server'
import { createUser, removeUser } from '../../app/modules/users/users.service.server'
import { db } from '../../app/platform/db.server'
import { UPLOAD_REFUSED } from '../../app/platform/media/upload-policy'
import { plainPng } from '../fixtures/images'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'
import { openAdminNav } from './admin-nav'

const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'marketplace-e2e-'))
test.afterAll(() => fs.rmSync(fixtures, { recursive: true, force: true }))

/** The product cards of the marketplace's list (or grid). */
function productList(page: Page): Locator {
  return page.locator('.product-list')
}

function card(page: Page, name: string): Locator {
  return productList(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) })
}

function cardNames(page: Page): Locator {
  return productList(page).getByRole('heading', { level: 2 })
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toaster]').getByText(text)
}

/**
 * The carousel shows image `position`: its strip has scrolled all the way to it, and the counter
 * over the image and the current thumbnail say so. Waiting for the scroll to arrive is what a
 * person does before the next tap. (A tap while the strip still moves can step from the wrong
 * image on a busy machine: ImageStrip's followScroll takes a frame missed for 100 ms as the end
 * of the scroll and makes the image passed by then the current one.)
 */
async function expectCarouselAt(carousel: Locator, position: number, count: number) {
  const track = carousel.locator('.carousel-track')
  await expect
    .poll(() => track.evaluate((t, slide) => Math.abs(t.scrollLeft - slide * t.clientWidth), position - 1))
    .toBeLessThanOrEqual(1)
  await expect(carousel.locator('.carousel-counter')).toContainText(`${position} / ${count}`)
  await expect(carousel.getByRole('button', { name: `Show image ${position} of ${count}` })).toHaveAttribute(
    'aria-current',
    'true',
  )
}

test('a marketplace manager signs in on the marketplace, adds, edits and deletes a product', async ({ page }) => {
  test.setTimeout(90_000)
  const manager = { email: 'marla@example.org', password: 'marlas own password' }
  const name = 'Shell Wind Chime'
  const renamed = 'Sea Shell Wind Chime'
  const { id } = await createUser({ ...manager, name: 'Marla Market', role: 'marketplace' })
  try {
    await page.goto('/marketplace')
    await waitForHydration(page)
    await expect(page.getByRole('link', { name: 'Add Product' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Delete product' })).toHaveCount(0)

    // Sign in from the marketplace's own dialog; it comes back to the marketplace.
    await page.getByRole('button', { name: 'Admin Login' }).click()
    const login = page.getByRole('dialog', { name: 'Marketplace Admin' })
    await expect(login).toBeVisible()
    await login.getByLabel('E-mail').fill(manager.email)
    await login.getByLabel('Password').fill(manager.password)
    await login.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByRole('link', { name: 'Add Product' })).toBeVisible()
    await expect(page).toHaveURL('/marketplace')
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Admin Login' })).toHaveCount(0)
    const cards = productList(page).getByRole('listitem')
    const cardCount = await cards.count()
    expect(cardCount).toBeGreaterThan(0)
    await expect(page.getByRole('button', { name: 'Delete product' })).toHaveCount(cardCount)
    for (const each of await cards.all()) await expect(each.getByRole('button', { name: 'Delete product' })).toBeVisible()

    // Add a product with two images.
    await page.getByRole('link', { name: 'Add Product' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Add New Item' })).toBeVisible()
    await waitForHydration(page)
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Description').fill('Shells from the beach on strings of fishing line. It rings softly in the wind.')
    await page.getByLabel('Price (optional)').fill('12.5')
    await page.getByLabel('Category').selectOption({ label: 'Crafts' })
    // Typed as it is dialled in Antigua; the form shows the international number chats will go to.
    await page.getByLabel('WhatsApp number (optional)').fill('(268) 555-0199')
    await expect(page.getByRole('status').filter({ hasText: 'Chats will go to' })).toHaveText('Chats will go to +1 268 555 0199')
    const first = path.join(fixtures, 'chime-1.png')
    const second = path.join(fixtures, 'chime-2.png')
    fs.writeFileSync(first, await plainPng(900, 900, '#0ea5e9'))
    fs.writeFileSync(second, await plainPng(900, 900, '#f97316'))
    await page.getByLabel('Images', { exact: true }).setInputFiles([first, second])
    await expect(page.getByText('Uploaded', { exact: true })).toHaveCount(2, { timeout: 30_000 })

    // The save waits until its busy state has been seen.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/admin/products/new*', async (route) => {
      if (route.request().method() === 'POST') await held
      await route.continue()
    })
    await page.getByRole('button', { name: 'Add Item' }).click()
    await expect(page.getByRole('button', { name: 'Adding...' })).toBeDisabled()
    release()
    await expect(toast(page, 'Product added.')).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/products$/)
    await page.unrouteAll()

    await page.goto('/marketplace')
    await waitForHydration(page)
    const added = card(page, name)
    await expect(added).toHaveCount(1)
    await expect(added.getByText('$12.50', { exact: true })).toBeVisible()
    await expect(added.getByText('Crafts', { exact: true })).toBeVisible()
    await expectCarouselAt(added.getByRole('group', { name, exact: true }), 1, 2)
    const imageSource = (slide: number) =>
      added
        .getByRole('group', { name: `${slide} of 2`, exact: true })
        .getByRole('img')
        .getAttribute('src')
    const [firstSrc, secondSrc] = [await imageSource(1), await imageSource(2)]
    expect(firstSrc).toMatch(/^\/media\//)
    expect(secondSrc).not.toBe(firstSrc)

    // Its page: the WhatsApp number got the 1 of the North American plan, and is shown in full.
    await page.goto(`/marketplace/${(await listProductsForAdmin()).find((p) => p.name === name)!.slug}`)
    expect(await page.getByRole('link', { name: /^Chat on WhatsApp \+1 268 555 0199/ }).getAttribute('href')).toMatch(
      /^https:\/\/wa\.me\/12685550199\?text=/,
    )

    // Edit it from its card: a new name, and the second image first.
    await page.goto('/marketplace')
    await card(page, name)
      .getByRole('link', { name: `Edit ${name}` })
      .click()
    await expect(page.getByRole('heading', { level: 1, name: `Edit ${name}` })).toBeVisible()
    await waitForHydration(page)
    await expect(page.getByLabel('Price (optional)')).toHaveValue('12.50')
    await page.getByLabel('Name', { exact: true }).fill(renamed)
    await page.getByRole('button', { name: 'Move image 2 earlier' }).click()
    await expect(page.getByRole('button', { name: 'Move image 1 earlier' })).toBeDisabled()
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(toast(page, 'Changes saved.')).toBeVisible()

    await page.goto('/marketplace')
    await waitForHydration(page)
    await expect(card(page, name)).toHaveCount(0)
    const edited = card(page, renamed)
    await expect(edited).toHaveCount(1)
    await expect(edited.getByText('$12.50', { exact: true })).toBeVisible()
    const editedSource = (slide: number) =>
      edited
        .getByRole('group', { name: `${slide} of 2`, exact: true })
        .getByRole('img')
        .getAttribute('src')
    expect(await editedSource(1)).toBe(secondSrc)
    expect(await editedSource(2)).toBe(firstSrc)

    // Delete it from its card, after confirming.
    await edited.getByRole('button', { name: 'Delete product' }).click()
    const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete this product?' })
    await expect(confirm).toBeVisible()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(toast(page, 'Product moved to the trash.')).toBeVisible()
    await expect(page).toHaveURL('/marketplace')
    await expect(card(page, renamed)).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Delete product' })).toHaveCount(cardCount)
    expect((await listProductsForAdmin()).some((p) => p.name === renamed || p.name === name)).toBe(false)
  } finally {
    for (const product of await listProductsForAdmin()) {
      if (product.name === name || product.name === renamed) await deleteProduct(product.id)
    }
    await removeUser(id)
  }
})

test('the category links and the search change the address and the list; no match shows an empty state', async ({ page }) => {
  await page.goto('/marketplace')
  await waitForHydration(page)
  const categories = page.getByRole('navigation', { name: 'Product categories' })
  await expect(categories.getByRole('link')).toHaveText(['All', 'General', 'Clothing', 'Crafts'])
  await expect(categories.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page')
  await expect(cardNames(page).filter({ hasText: 'Banana Bread Loaf' })).toHaveCount(1)

  await categories.getByRole('link', { name: 'Crafts' }).click()
  await expect(page).toHaveURL('/marketplace?category=crafts')
  await expect(categories.getByRole('link', { name: 'Crafts' })).toHaveAttribute('aria-current', 'page')
  await expect(cardNames(page)).toHaveText(['Beaded Bracelets', 'Handmade Soap Set'])
  await expect(page.getByRole('status').filter({ hasText: 'products in Crafts' })).toHaveText('2 products in Crafts')

  await categories.getByRole('link', { name: 'All' }).click()
  await expect(page).toHaveURL('/marketplace')
  await expect(cardNames(page).filter({ hasText: 'Banana Bread Loaf' })).toHaveCount(1)

  const search = page.getByRole('searchbox', { name: 'Search products' })
  await search.fill('banana')
  await search.press('Enter')
  await expect(page).toHaveURL('/marketplace?q=banana')
  await expect(cardNames(page)).toHaveText(['Banana Bread Loaf'])
  await expect(search).toHaveValue('banana')

  await search.fill('unicorn saddle')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page).toHaveURL('/marketplace?q=unicorn+saddle')
  await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible()
  await expect(productList(page)).toHaveCount(0)
  await page.getByRole('link', { name: 'Show all products' }).click()
  await expect(page).toHaveURL('/marketplace')
  await expect(cardNames(page).filter({ hasText: 'Banana Bread Loaf' })).toHaveCount(1)
})

test('the grid or list choice is remembered on the next visit', async ({ page }) => {
  await page.goto('/marketplace')
  await waitForHydration(page)
  const views = page.getByRole('list', { name: 'Show products as' })
  await expect(views.getByRole('link', { name: 'List' })).toHaveAttribute('aria-current', 'true')
  await expect(productList(page)).toHaveClass(/\bproduct-list-list\b/)

  await views.getByRole('link', { name: 'Grid' }).click()
  await expect(page).toHaveURL('/marketplace?view=grid')
  await expect(views.getByRole('link', { name: 'Grid' })).toHaveAttribute('aria-current', 'true')
  await expect(productList(page)).toHaveClass(/\bproduct-list-grid\b/)

  await page.goto('/marketplace')
  await expect(views.getByRole('link', { name: 'Grid' })).toHaveAttribute('aria-current', 'true')
  await expect(productList(page)).toHaveClass(/\bproduct-list-grid\b/)
  // And back: List is remembered too.
  await waitForHydration(page)
  await views.getByRole('link', { name: 'List' }).click()
  await expect(productList(page)).toHaveClass(/\bproduct-list-list\b/)
  await page.goto('/marketplace?category=crafts')
  await expect(views.getByRole('link', { name: 'List' })).toHaveAttribute('aria-current', 'true')
  await expect(productList(page)).toHaveClass(/\bproduct-list-list\b/)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the category links, the search form and the view links work as plain links and forms', async ({ page }) => {
    await page.goto('/marketplace')
    const categories = page.getByRole('navigation', { name: 'Product categories' })
    await categories.getByRole('link', { name: 'Crafts' }).click()
    await expect(page).toHaveURL('/marketplace?category=crafts')
    await expect(cardNames(page)).toHaveText(['Beaded Bracelets', 'Handmade Soap Set'])

    // The search keeps the category.
    const search = page.getByRole('searchbox', { name: 'Search products' })
    await search.fill('soap')
    await search.press('Enter')
    await expect(page).toHaveURL('/marketplace?category=crafts&q=soap')
    await expect(cardNames(page)).toHaveText(['Handmade Soap Set'])

    await categories.getByRole('link', { name: 'All' }).click()
    await expect(page).toHaveURL('/marketplace?q=soap')
    await expect(cardNames(page)).toHaveText(['Handmade Soap Set'])

    await search.fill('tutoring')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(page).toHaveURL('/marketplace?q=tutoring')
    await expect(cardNames(page)).toHaveText(['Maths and Reading Tutoring'])

    await search.fill('unicorn saddle')
    await search.press('Enter')
    await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible()

    await page.getByRole('link', { name: 'Grid' }).click()
    await expect(productList(page)).toHaveCount(0) // still the search without results, now as a grid
    await page.goto('/marketplace')
    await expect(page.getByRole('link', { name: 'Grid' })).toHaveAttribute('aria-current', 'true')
    await expect(productList(page)).toHaveClass(/\bproduct-list-grid\b/)
  })
})

test.describe('with motion', () => {
  test.use({ reducedMotion: 'no-preference' })

  test('the carousel wraps at both ends, jumps with the thumbnails and follows the arrow keys', async ({ page }) => {
    await page.goto('/marketplace/beaded-bracelets')
    await waitForHydration(page)
    const carousel = page.getByRole('group', { name: 'Beaded Bracelets', exact: true })
    await expectCarouselAt(carousel, 1, 3)
    const next = carousel.getByRole('button', { name: 'Next image' })
    const previous = carousel.getByRole('button', { name: 'Previous image' })

    await next.click()
    await expectCarouselAt(carousel, 2, 3)
    await next.click()
    await expectCarouselAt(carousel, 3, 3)
    await next.click()
    await expectCarouselAt(carousel, 1, 3)
    await previous.click()
    await expectCarouselAt(carousel, 3, 3)

    await carousel.getByRole('button', { name: 'Show image 2 of 3' }).click()
    await expectCarouselAt(carousel, 2, 3)
    await carousel.getByRole('button', { name: 'Show image 1 of 3' }).click()
    await expectCarouselAt(carousel, 1, 3)

    await carousel.locator('.carousel-track').focus()
    await page.keyboard.press('ArrowLeft')
    await expectCarouselAt(carousel, 3, 3)
    await page.keyboard.press('ArrowRight')
    await expectCarouselAt(carousel, 1, 3)
    await page.keyboard.press('ArrowRight')
    await expectCarouselAt(carousel, 2, 3)
  })
})

test('the carousel of a card turns its images without opening the product', async ({ page }) => {
  await page.goto('/marketplace')
  await waitForHydration(page)
  const carousel = card(page, 'Beaded Bracelets').getByRole('group', { name: 'Beaded Bracelets', exact: true })
  await carousel.getByRole('button', { name: 'Previous image' }).click()
  await expectCarouselAt(carousel, 3, 3)
  await carousel.getByRole('button', { name: 'Next image' }).click()
  await expectCarouselAt(carousel, 1, 3)
  await carousel.getByRole('button', { name: 'Show image 2 of 3' }).click()
  await expectCarouselAt(carousel, 2, 3)
  await carousel.locator('.carousel-track').focus()
  await page.keyboard.press('ArrowRight')
  await expectCarouselAt(carousel, 3, 3)
  await expect(page).toHaveURL('/marketplace')
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('a card opens its product in a dialog with its own address; Escape and the close button go back', async ({ page }) => {
  await page.goto('/marketplace')
  await waitForHydration(page)

  await card(page, 'Banana Bread Loaf')
    .getByText(/^Moist banana bread/)
    .click()
  const bread = page.getByRole('dialog', { name: 'Banana Bread Loaf' })
  await expect(bread).toBeVisible()
  await expect(page).toHaveURL('/marketplace/banana-bread-loaf')
  await expect(bread.getByRole('heading', { level: 1, name: 'Banana Bread Loaf' })).toBeVisible()
  await expect(bread.getByText('$15.00', { exact: true })).toBeVisible()
  await expect(bread.getByText(/baked fresh every Friday with local bananas/)).toBeVisible()
  const whatsApp = bread.getByRole('link', { name: /^Chat on WhatsApp/ })
  await expect(whatsApp).toHaveAttribute('target', '_blank')
  const chat = new URL((await whatsApp.getAttribute('href'))!)
  expect(chat.href).toMatch(/^https:\/\/wa\.me\/1268555/)
  expect(chat.searchParams.get('text')).toContain('"Banana Bread Loaf"')
  expect(chat.searchParams.get('text')).toMatch(/\/marketplace\/banana-bread-loaf$/)

  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page).toHaveURL('/marketplace')

  await card(page, 'Tie-dye T-shirts').getByText('$20.00', { exact: true }).click()
  const shirts = page.getByRole('dialog', { name: 'Tie-dye T-shirts' })
  await expect(shirts).toBeVisible()
  await expect(page).toHaveURL('/marketplace/tie-dye-t-shirts')
  const instagram = shirts.getByRole('link', { name: /^View on Instagram/ })
  await expect(instagram).toHaveAttribute('target', '_blank')
  await expect(instagram).toHaveAttribute('href', /^https:\/\/www\.instagram\.com\//)
  await expect(shirts.getByRole('link', { name: /^Chat on WhatsApp/ })).toHaveCount(0)
  await shirts.getByRole('button', { name: 'Close product' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page).toHaveURL('/marketplace')
  await expect(cardNames(page).filter({ hasText: 'Tie-dye T-shirts' })).toHaveCount(1)
})

test('a product loaded from its address is a page with its details and a JPEG preview image', async ({ page }) => {
  await page.goto('/marketplace/banana-bread-loaf')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: 'Banana Bread Loaf' })).toBeVisible()
  await expect(page.getByText('$15.00', { exact: true })).toBeVisible()
  await expect(page.getByText(/baked fresh every Friday with local bananas/)).toBeVisible()
  await expect(page.getByRole('link', { name: /^Chat on WhatsApp/ })).toHaveAttribute('href', /^https:\/\/wa\.me\/1268555/)
  await expect(page).toHaveTitle(/^Banana Bread Loaf \| /)
  const image = (await page.locator('meta[property="og:image"]').getAttribute('content'))!
  expect(image).toMatch(/\/media\/.+\.jpg$/)
  const answer = await page.request.get(image)
  expect(answer.status()).toBe(200)
  expect(answer.headers()['content-type']).toBe('image/jpeg')
  await page.getByRole('link', { name: '← All products' }).click()
  await expect(page).toHaveURL('/marketplace')
})

test('a marketplace manager reaches none of the other admin sections', async ({ page, signIn }) => {
  const manager = { email: 'malik@example.org', password: 'maliks own password' }
  const { id } = await createUser({ ...manager, name: 'Malik Market', role: 'marketplace' })
  try {
    await signIn(manager.email, manager.password)
    await page.goto('/admin/products')
    await expect((await openAdminNav(page)).getByRole('link')).toHaveText([
      'Products',
      'Trash',
      'My account',
      'Guide',
      'View site',
    ])
    for (const url of ['/admin/news', '/admin/photos', '/admin/events', '/admin/settings', '/admin/users', '/admin/messages']) {
      const response = await page.goto(url)
      expect(response?.status(), url).toBe(403)
      await expect(page.getByRole('heading', { level: 1, name: 'Access denied' }), url).toBeVisible()
    }
    // The refusal keeps the manager's own header: their pages and signing out.
    await expect((await openAdminNav(page)).getByRole('link')).toHaveText([
      'Products',
      'Trash',
      'My account',
      'Guide',
      'View site',
    ])
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible()
  } finally {
    await removeUser(id)
  }
})

test('a marketplace manager over the upload quota reads why, and tries again once there is room', async ({ page, signIn }) => {
  const manager = { email: 'mateo@example.org', password: 'mateos own password' }
  const { id } = await createUser({ ...manager, name: 'Mateo Market', role: 'marketplace' })
  // Twenty uploads already started and not finished, in another tab say: as many as one may have.
  const now = new Date().toISOString()
  const started = Array.from({ length: 20 }, () => ({
    id: crypto.randomBytes(16).toString('hex'),
    userId: id,
    filename: 'earlier.jpg',
    contentType: 'image/jpeg',
    size: 1000,
    received: 0,
    createdAt: now,
    updatedAt: now,
  }))
  await db.insertInto('uploads').values(started).execute()
  try {
    await signIn(manager.email, manager.password)
    await page.goto('/admin/products/new')
    await waitForHydration(page)
    const image = { name: 'bowl.png', mimeType: 'image/png', buffer: await plainPng(600, 600, '#0ea5e9') }
    await page.getByLabel('Images', { exact: true }).setInputFiles(image)
    await expect(page.getByRole('alert').filter({ hasText: 'bowl.png' })).toHaveText(
      `bowl.png was not uploaded. ${UPLOAD_REFUSED.tooManyUnfinished(20)}`,
    )

    // The earlier uploads finish (or are removed): the same file goes in.
    await db.deleteFrom('uploads').where('userId', '=', id).execute()
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByText('Uploaded', { exact: true })).toBeVisible()
    await expect(page.getByRole('alert').filter({ hasText: 'bowl.png' })).toHaveCount(0)
  } finally {
    await removeUser(id)
  }
})

test('web addresses in a description are links that open in a new tab, marked nofollow and ugc', async ({ page }) => {
  await page.goto('/marketplace')
  const link = card(page, 'Tie-dye T-shirts').getByRole('link', { name: /^https:\/\/www\.instagram\.com\// })
  await expect(link).toHaveAttribute('href', 'https://www.instagram.com/')
  await expect(link).toHaveAttribute('target', '_blank')
  const rel = ((await link.getAttribute('rel')) ?? '').split(/\s+/)
  expect(rel).toEqual(expect.arrayContaining(['nofollow', 'ugc', 'noopener']))
})

test('with the keyboard alone a product opens from its name, and Escape brings the focus back to it', async ({ page }) => {
  await page.goto('/marketplace')
  await waitForHydration(page)
  const opener = card(page, 'Banana Bread Loaf').getByRole('link', { name: 'Banana Bread Loaf' })
  await opener.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Banana Bread Loaf' })
  await expect(dialog).toBeVisible()
  await expect(page).toHaveURL('/marketplace/banana-bread-loaf')
  // The focus is in the dialog, and Tab never reaches the page behind it (the modal dialog makes
  // that inert; past its last link the focus goes to the browser's own controls, then back).
  await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    const behind = await dialog.evaluate(
      (element) => !element.contains(document.activeElement) && document.activeElement !== document.body,
    )
    expect(behind, `Tab ${i + 1}`).toBe(false)
  }
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(opener).toBeFocused()
})
