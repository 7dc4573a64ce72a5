import { expect, test } from './fixtures'

// Cards fade in one after another (the marketplace's stagger); axe must not judge them half-faded.
test.use({ reducedMotion: 'reduce' })

const ARTICLE_PATH = '/news/monthly-food-and-clothing-distribution'
const ARTICLE_TITLE = 'Monthly Food and Clothing Distribution'

function adminBar(page: import('@playwright/test').Page) {
  return page.getByRole('navigation', { name: 'Admin' })
}

test('a visitor who is not signed in sees no admin bar', async ({ page }) => {
  for (const path of ['/', ARTICLE_PATH, '/marketplace']) {
    await page.goto(path)
    await expect(page.locator('[data-admin-bar]')).toHaveCount(0)
    await expect(adminBar(page)).toHaveCount(0)
  }
})

test('a signed-in admin sees the bar on public pages, and "Edit this page" opens what they see', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/')
  const bar = adminBar(page)
  await expect(bar.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin')
  await expect(bar.getByRole('link', { name: 'Edit this page' })).toHaveAttribute('href', '/admin/pages?page=home')
  await expect(bar.getByRole('button', { name: 'Sign out' })).toBeVisible()
  // The bar never covers the navigation.
  const barBox = (await page.locator('.admin-bar').boundingBox())!
  const navBox = (await page.locator('header.site-header').boundingBox())!
  expect(navBox.y).toBeGreaterThanOrEqual(barBox.y + barBox.height - 1)

  await page.goto(ARTICLE_PATH)
  await adminBar(page).getByRole('link', { name: 'Edit this page' }).click()
  await expect(page).toHaveURL(/\/admin\/news\/[^/]+$/)
  await expect(page.getByLabel('Title')).toHaveValue(ARTICLE_TITLE)

  await page.goto('/calendar')
  await expect(adminBar(page).getByRole('link', { name: 'Edit this page' })).toHaveAttribute('href', '/admin/events')

  await page.goto('/about')
  await adminBar(page).getByRole('button', { name: 'Sign out' }).click()
  // Signing out stays on the page it was started from.
  await expect(page).toHaveURL(/\/about$/)
  await expect(page.locator('[data-admin-bar]')).toHaveCount(0)
})
