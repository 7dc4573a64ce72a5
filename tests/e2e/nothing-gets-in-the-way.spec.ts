import type { Locator, Page } from '@playwright/test'
import { createProduct } from '../../app/modules/marketplace/marketplace.service.server'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox()
  if (!box) throw new Error(`${locator} has no box`)
  return box
}

/** The toast with this text appears below `above` (the admin bar, or the admin header's Sign out). */
async function expectToastClearOf(page: Page, text: string, above: Locator) {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: text })
  await expect(toast).toBeVisible()
  const [toastBox, aboveBox] = [await boxOf(toast), await boxOf(above)]
  expect(toastBox.y).toBeGreaterThanOrEqual(aboveBox.y + aboveBox.height)
}

test('toasts after a save never cover Sign out, on public pages and in the admin', async ({ page, signIn }) => {
  const { slug } = await createProduct(
    {
      name: 'Driftwood Frame',
      description: 'A picture frame of driftwood.',
      price: null,
      category: 'crafts',
      seller: '',
      facebookLink: '',
      instagramLink: '',
      whatsappNumber: '',
      uploads: [],
      keepImages: [],
      removeImages: [],
    },
    { id: 'nobody' },
  )
  await signIn()
  await page.goto(`/marketplace?q=Driftwood`)
  await waitForHydration(page)
  const productCard = page.locator('.product-list > li').filter({ has: page.locator(`a[href$="/${slug}"]`) })
  await productCard.getByRole('button', { name: 'Delete product' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
  await expectToastClearOf(page, 'Product moved to the trash.', page.locator('.admin-bar'))

  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/admin/settings')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expectToastClearOf(page, 'Settings saved', page.locator('.admin-header').getByRole('button', { name: 'Sign out' }))
  }
})

test('admin lists keep a space between a title and its tags, for screen readers and copying', async ({ page, signIn }) => {
  await signIn()
  for (const path of ['/admin/news', '/admin/photos', '/admin/products', '/admin/users']) {
    await page.goto(path)
    const glued = await page
      .locator('.admin-table .admin-badge')
      .evaluateAll((badges) =>
        badges
          .filter((badge) => !/\s$/.test(badge.previousSibling?.textContent ?? ' '))
          .map((badge) => badge.parentElement!.textContent),
      )
    expect(await page.locator('.admin-table .admin-badge').count(), path).toBeGreaterThan(0)
    expect(glued, path).toEqual([])
  }
})

test('the home page’s "How We Help" cards lead to /services', async ({ page }) => {
  await page.goto('/')
  const cards = page.locator('section', { has: page.locator('#help-areas') }).getByRole('listitem')
  expect(await cards.count()).toBe(4)
  for (const card of await cards.all()) await expect(card.getByRole('link')).toHaveAttribute('href', '/services')
  await cards.first().getByRole('link').click()
  await expect(page).toHaveURL('/services')
})
