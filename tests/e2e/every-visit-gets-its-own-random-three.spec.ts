import { expect, test } from './fixtures'

/** The names of the marketplace products the home page shows. */
function highlightNames(page: import('@playwright/test').Page) {
  return page.locator('section', { has: page.locator('#marketplace-highlights') }).locator('.media-card-title:visible')
}

test('every visit of a cached home page gets its own three random products', async ({ page }) => {
  // One copy of the page served to every visit, as the page cache or a proxy would.
  const cached = await (await page.request.get('/')).text()
  await page.route(
    (url) => url.pathname === '/',
    (route) => route.fulfill({ body: cached, contentType: 'text/html; charset=utf-8' }),
  )
  const seen = new Set<string>()
  for (let visit = 0; visit < 8 && seen.size < 2; visit++) {
    // The page's own few lines pick the three as it is read, without React.
    await page.goto('/')
    await expect(highlightNames(page)).toHaveCount(3)
    seen.add((await highlightNames(page).allTextContents()).sort().join(' | '))
  }
  expect(seen.size).toBeGreaterThan(1)
})

test('without JavaScript the home page shows the three products it was served with', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/')
  await expect(highlightNames(page)).toHaveCount(3)
  await expect(page.getByRole('link', { name: 'View All Items' })).toHaveAttribute('href', '/marketplace')
  await context.close()
})
