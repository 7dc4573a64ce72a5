import { expect, smallTapTargets, test } from './fixtures'
import { waitForHydration } from './hydration'

test('every tap target of the marketplace is at least 44 px, Admin Login and the manager’s too', async ({ page, signIn }) => {
  await page.goto('/marketplace')
  await expect(page.getByRole('button', { name: 'Admin Login' })).toBeVisible()
  expect(await smallTapTargets(page)).toEqual([])
  await signIn()
  await page.goto('/marketplace')
  await expect(page.getByRole('link', { name: 'Add Product' })).toBeVisible()
  expect(await smallTapTargets(page)).toEqual([])
})

test('each card keeps the old site’s delete control, titled Delete product', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/marketplace')
  const deletes = page.locator('.product-list').getByRole('button', { name: 'Delete product' })
  expect(await deletes.count()).toBeGreaterThan(0)
  for (const control of await deletes.all()) await expect(control).toHaveAttribute('title', 'Delete product')
})

test('a demo product without a picture shows the 400x400 placeholder', async ({ page }) => {
  await page.goto('/marketplace')
  const placeholder = page.locator('.product-list > li').getByRole('img', { name: 'No image' })
  await expect(placeholder).toHaveCount(1)
  await expect(placeholder).toHaveAttribute('viewBox', '0 0 400 400')
})

test('on a phone the product dialog gives its picture and text the whole width', async ({ page }) => {
  await page.goto('/marketplace')
  await waitForHydration(page)
  await page.locator('.product-list').getByRole('link', { name: 'Banana Bread Loaf' }).click()
  const dialog = page.getByRole('dialog', { name: 'Banana Bread Loaf' })
  await expect(dialog).toBeVisible()
  const widthOf = (selector: string) => dialog.locator(selector).evaluate((element) => element.getBoundingClientRect().width)
  const article = await widthOf('.product-detail')
  expect(article).toBeGreaterThan(250)
  expect(await widthOf('.product-detail-layout')).toBeCloseTo(article, 0)
  expect(await widthOf('.product-detail-text')).toBeCloseTo(article, 0)
})

test('"Name and description are required" is said once on the product form', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/products/new')
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Add Item' }).click()
  await expect(page.getByText('Name and description are required', { exact: true })).toHaveCount(1)
  await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Description')).toHaveAttribute('aria-invalid', 'true')
  // With a name, the message stays for the description alone.
  await page.getByLabel('Name', { exact: true }).fill('Mango Jam')
  await page.getByRole('button', { name: 'Add Item' }).click()
  await expect(page.getByText('Name and description are required', { exact: true })).toHaveCount(1)
  await expect(page.getByLabel('Name', { exact: true })).not.toHaveAttribute('aria-invalid', 'true')
})
