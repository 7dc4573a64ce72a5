import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_FLAGS } from '../setup/chromium'
import { startServerForFile } from '../setup/server-for-file'

// The browser tests run with the page cache off (tests/e2e add content behind the server's back);
// here Chromium loads pages the way most visitors get them: kept, their scripts allowed by hash.
const server = await startServerForFile()
let browser: Browser

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
})

afterAll(async () => {
  await browser?.close()
})

// Pages that ship scripts (pages a visitor only reads ship none, the home page and the support page only their own few lines: decision 032).
const PAGES = ['/news', '/photos', '/calendar', '/marketplace', '/contact']

describe('a page kept in memory', () => {
  it('runs its scripts under its Content-Security-Policy and comes to life', async () => {
    const page = await browser.newPage()
    const problems: string[] = []
    page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()))
    page.on('pageerror', (error) => problems.push(error.message))
    await page.exposeFunction('reportViolation', (text: string) => problems.push(text))
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation: (t: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
      )
    })
    // The home page's own lines run too: they pick three products and start offline reading.
    for (const state of ['miss', 'hit']) {
      const response = await page.goto(server.url)
      expect(await response!.headerValue('x-page-cache'), '/').toBe(state)
      const products = page.locator('section:has(#marketplace-highlights) li')
      expect(await products.evaluateAll((items) => items.filter((item) => !(item as HTMLElement).hidden).length)).toBe(3)
      await page.evaluate(() => navigator.serviceWorker.ready)
    }
    // The support page's own lines show its Copy buttons.
    for (const state of ['miss', 'hit']) {
      const response = await page.goto(`${server.url}/support`)
      expect(await response!.headerValue('x-page-cache'), '/support').toBe(state)
      await page
        .getByRole('button', { name: /^Copy the .* account number$/ })
        .first()
        .waitFor()
    }
    for (const path of PAGES) {
      for (const state of ['miss', 'hit']) {
        const response = await page.goto(server.url + path)
        expect(await response!.headerValue('x-page-cache'), path).toBe(state)
        await page.waitForFunction(() => '__reactRouterDataRouter' in window)
      }
    }
    // A shared link carries a parameter that no page reads: it gets the kept page, which comes to life the same.
    const shared = await page.goto(`${server.url}/news?fbclid=abc`)
    expect(await shared!.headerValue('x-page-cache')).toBe('hit')
    await page.waitForFunction(() => '__reactRouterDataRouter' in window)
    // Hydrated: a link now changes the page without loading a new document.
    await page.goto(`${server.url}/contact`)
    await page.waitForFunction(() => '__reactRouterDataRouter' in window)
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1))
    await page.locator('a[href="/news"]').first().click()
    await page.waitForURL(`${server.url}/news`)
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1)
    expect(problems).toEqual([])
  })
})
