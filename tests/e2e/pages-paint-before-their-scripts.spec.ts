import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

// Decision 021: a public page needs nothing but its own response to paint; its scripts are
// React Router's modules, which run once the page is parsed.

test('a public page brings its styles in its own response, and its scripts take over after', async ({ page }) => {
  await page.goto('/marketplace')
  await waitForHydration(page)
  const timing = await page.evaluate(() => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
    return {
      scripts: resources.filter((r) => r.name.includes('/assets/') && r.name.endsWith('.js')).length,
      stylesheets: resources.filter((r) => r.name.endsWith('.css')).length,
      linked: document.querySelectorAll('link[rel="stylesheet"], link[rel="modulepreload"][href$=".css"]').length,
    }
  })
  expect(timing.stylesheets).toBe(0)
  expect(timing.linked).toBe(0)
  expect(timing.scripts).toBeGreaterThan(5)

  // Still styled after moving to another page without loading it.
  await expect(page.locator('header.site-header')).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await nav.getByText('Menu', { exact: true }).click()
  await nav.getByRole('link', { name: 'Calendar', exact: true }).click()
  await expect(page).toHaveURL(/\/calendar$/)
  await expect(page.locator('.calendar-layout')).toHaveCSS('display', 'grid')
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1)
})

test('a signed-in page links the same stylesheet instead: it is made for each request, and the browser keeps the sheet', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/about')
  await waitForHydration(page)
  await expect(page.locator('style#public-stylesheet')).toHaveCount(0)
  await expect(page.locator('link[rel="stylesheet"][href*="/assets/public-"]')).toHaveCount(1)
  await expect(page.locator('header.site-header')).toHaveCSS('position', /fixed|sticky|absolute/)
  await expect(page.locator('.hero-content h1')).not.toHaveCSS('color', 'rgb(0, 0, 0)')
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a public page is fully styled from its own response', async ({ page }) => {
    const requested: string[] = []
    page.on('request', (request) => requested.push(new URL(request.url()).pathname))
    await page.goto('/calendar')
    // React Router's preloaded modules may come, but no stylesheet: the page has its own.
    expect(requested.filter((path) => path.startsWith('/assets/') && !path.endsWith('.js'))).toEqual([])
    await expect(page.locator('style#public-stylesheet')).toHaveCount(1)
    // The calendar's header bar is solid purple: the sheet applies.
    await expect(page.locator('header.site-header')).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)')
    await expect(page.locator('.calendar-layout')).toHaveCSS('display', 'grid')
  })
})
