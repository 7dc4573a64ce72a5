import { countSampleContent } from '../../app/modules/trash/trash.server'
import { expect, test } from './fixtures'

/** Words meant for administrators that demo texts once carried. */
const ADMIN_WORDS = /sample|Admin →/i

test('visitors read the demo content without a word meant for administrators', async ({ page }) => {
  // Every demo item's page is opened and scanned for accessibility: three times the usual time.
  test.slow()
  for (const path of ['/news', '/photos', '/marketplace', '/calendar']) {
    await page.goto(path)
    // Each item's own page (not the feed beside them).
    const hrefs = await page
      .locator('main a')
      .evaluateAll(
        (links, section) =>
          [...new Set(links.map((link) => link.getAttribute('href') ?? ''))].filter((href) =>
            new RegExp(`^${section}/[^/?.]+(\\?date=[\\d-]+)?$`).test(href),
          ),
        path,
      )
    expect(hrefs.length, path).toBeGreaterThan(0)
    for (const href of hrefs) {
      await page.goto(href)
      await expect(page.locator('main'), href).not.toContainText(ADMIN_WORDS)
    }
  }
})

test('administrators see the sample content marked in their lists and counted on the dashboard', async ({ page, signIn }) => {
  const total = await countSampleContent(['article', 'media', 'product', 'event'])
  expect(total).toBeGreaterThan(1)
  await signIn()
  await page.goto('/admin')
  await expect(page.getByRole('link', { name: `${total} sample items are still on the site: remove them` })).toBeVisible()
  // Tests before this one may have deleted some demo items: each list shows as many badges as it has sample items left.
  const lists = [
    ['/admin/news', await countSampleContent(['article'])],
    ['/admin/photos', await countSampleContent(['media'])],
    ['/admin/products', await countSampleContent(['product'])],
    ['/admin/events', await countSampleContent(['event'])],
  ] as const
  expect(lists.filter(([, count]) => count > 0).length).toBeGreaterThan(1)
  for (const [path, count] of lists) {
    await page.goto(path)
    await expect(page.locator('.admin-table .admin-badge').filter({ hasText: /^sample$/ }), path).toHaveCount(count)
  }
})
