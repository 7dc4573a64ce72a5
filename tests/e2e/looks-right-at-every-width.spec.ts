import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, PUBLIC_PAGES, test } from './fixtures'
import { waitForHydration } from './hydration'

// Cards fade in one after another (the marketplace's stagger); axe must not judge them half-faded.
test.use({ reducedMotion: 'reduce' })

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']

/** One item page of each kind (article, event, photo, product), found through the sitemap. */
async function itemPages(page: Page): Promise<string[]> {
  const xml = await (await page.request.get('/sitemap.xml')).text()
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)
  return ['/news/', '/calendar/', '/photos/', '/marketplace/'].map((prefix) => {
    const found = paths.find((p) => p.startsWith(prefix) && p.length > prefix.length)
    if (!found) throw new Error(`The sitemap lists no page under ${prefix}`)
    return found
  })
}

/** The outermost elements that reach past the right edge of the viewport, as short selectors. */
async function elementsWiderThanTheViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const describe = (el: Element) =>
      el.tagName.toLowerCase() +
      (el.id ? `#${el.id}` : '') +
      [...el.classList].map((c) => `.${c}`).join('') +
      ` (right edge ${Math.round(el.getBoundingClientRect().right)} px)`
    const sticksOut = (el: Element) => {
      const box = el.getBoundingClientRect()
      return box.width > 0 && box.right > width + 1
    }
    return [...document.body.querySelectorAll('*')]
      .filter((el) => sticksOut(el) && !(el.parentElement && sticksOut(el.parentElement)))
      .map(describe)
  })
}

for (const width of [360, 1280]) {
  test(`no public page is wider than a ${width} px screen`, async ({ page }) => {
    test.setTimeout(120_000)
    await page.setViewportSize({ width, height: 800 })
    for (const path of [...PUBLIC_PAGES, ...(await itemPages(page))]) {
      await page.goto(path)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      const culprits = overflow > 0 ? await elementsWiderThanTheViewport(page) : []
      expect({ path, overflow, culprits }).toEqual({ path, overflow: 0, culprits: [] })
    }
  })
}

async function expectNavigationPasses(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze()
  const summary = results.violations.map((v) => `${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
  expect(summary, `WCAG 2.2 AA with the navigation ${state}`).toEqual([])
}

test('the navigation meets WCAG 2.2 AA contrast in every state', async ({ page, signIn }) => {
  const header = page.locator('header.site-header')
  await page.setViewportSize({ width: 1280, height: 800 })
  // A page with a hero that ships its scripts: the bar follows the scrolling there. A visitor's
  // pages with a hero ship none (decision 032); a signed-in user's do.
  await signIn()
  await page.goto('/support')
  await waitForHydration(page)
  await expect(header).toHaveAttribute('data-nav-look', 'transparent')
  await expectNavigationPasses(page, 'transparent over the hero')

  await page.evaluate(() => window.scrollTo(0, 400))
  await expect(header).toHaveAttribute('data-nav-look', 'scrolled')
  await expectNavigationPasses(page, 'white once scrolled')

  await page.goto('/news')
  await expect(header).toHaveAttribute('data-nav-look', 'solid')
  await expectNavigationPasses(page, 'solid purple')

  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/support')
  await waitForHydration(page)
  await page.getByRole('navigation', { name: 'Main' }).getByText('Menu', { exact: true }).click()
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact' })).toBeVisible()
  await expectNavigationPasses(page, 'with the phone menu open')
})
