import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page, type Route } from '@playwright/test'
import { UPLOAD_ENDPOINT } from '../../app/platform/media/upload-policy'
import { E2E_ADMIN } from '../../playwright.config'

function withoutHash(url: string): string {
  return url.split('#')[0]
}

/** An axe scan of the page as it is now; the fixture scans each page once, as it first appears. */
export async function expectNoAxeViolations(page: Page) {
  // Contrast is measured on the page at rest: text half-way through a fade-in is not what people
  // read. An animation tied to the scrolling (the bar's) is at rest wherever the page stands.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.timeline === document.timeline && animation.effect?.getComputedTiming().iterations !== Infinity,
        )
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
  const results = await new AxeBuilder({ page }).analyze()
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
  )
  expect(summary, `Accessibility violations on ${page.url()}`).toEqual([])
}

/** Requests a test makes fail on purpose: Chromium logs their failure, which is no fault then. */
const cutOnPurpose = new WeakMap<Page, Set<string>>()

/** Marks a request of the page as one the test makes fail (a withdrawn picture asked for again). */
export function failsOnPurpose(page: Page, url: string): void {
  cutOnPurpose.get(page)?.add(url)
}

/** Cuts the connection of an intercepted request, as a dropped mobile connection would. */
export async function cutConnection(page: Page, route: Route): Promise<void> {
  failsOnPurpose(page, route.request().url())
  await route.abort('connectionreset')
}

/**
 * `page` fails the test on any console error, uncaught page error or CSP violation, and runs an
 * axe scan of every page it shows: after each page.goto, at the end of the test, and for pages
 * reached by clicks or redirects along the way, again in a second tab once the test is done.
 */
export const test = base.extend<{ signIn: (email?: string, password?: string) => Promise<void> }>({
  page: async ({ page, javaScriptEnabled }, use) => {
    const problems: string[] = []
    // A page that answers 404 or 4xx on purpose makes Chromium log the document's status; that is not a fault.
    // Nor is a form's 4xx answer (validation, 'Invalid credentials', 429) fetched as `.data` and shown by the page.
    // Nor is an upload the server refuses to start, in words the upload field shows (a quota, a full disk).
    const documentUrls = new Set<string>()
    const cut = new Set<string>()
    cutOnPurpose.set(page, cut)
    page.on('response', (res) => {
      const { pathname } = new URL(res.url())
      const deliberateDataAnswer = pathname.endsWith('.data') && res.status() < 500
      const uploadRefusal =
        pathname === UPLOAD_ENDPOINT && res.request().method() === 'POST' && [413, 429, 507].includes(res.status())
      if (res.request().isNavigationRequest() || deliberateDataAnswer || uploadRefusal) documentUrls.add(res.url())
    })
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return
      const failedUrl = msg.location().url
      if (msg.text().startsWith('Failed to load resource') && (documentUrls.has(failedUrl) || cut.has(failedUrl))) return
      problems.push(`console.error: ${msg.text()} (${msg.location().url})`)
    })
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
    // Anything our Content-Security-Policy blocks (inline script, eval, foreign resource) is a fault.
    await page.exposeFunction('reportCspViolation', (text: string) => problems.push(`CSP violation: ${text}`))
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        ;(window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation(
          `${e.violatedDirective} blocked ${e.blockedURI || 'inline code'} at ${e.sourceFile}:${e.lineNumber}`,
        )
      })
    })
    const scanned = new Set<string>()
    const visited = new Set<string>()
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.add(withoutHash(frame.url()))
    })
    const scan = async () => {
      const url = withoutHash(page.url())
      // axe runs as a script inside the page, which a context without JavaScript cannot do; the
      // same pages are scanned by the tests that run with JavaScript.
      if (javaScriptEnabled === false) return
      if (scanned.has(url) || !url.startsWith('http')) return
      scanned.add(url)
      await expectNoAxeViolations(page)
    }
    const goto = page.goto.bind(page)
    page.goto = async (url, options) => {
      const response = await goto(url, options)
      await scan()
      return response
    }
    await use(page)
    if (!page.isClosed()) await scan()
    if (javaScriptEnabled !== false) {
      for (const url of visited) {
        if (scanned.has(url) || !url.startsWith('http')) continue
        scanned.add(url)
        const again = await page.context().newPage()
        await again.goto(url)
        await expectNoAxeViolations(again)
        await again.close()
      }
    }
    expect(problems, 'Unexpected errors in the browser').toEqual([])
  },
  signIn: async ({ page }, use) => {
    await use(async (email = E2E_ADMIN.email, password = E2E_ADMIN.password) => {
      await page.goto('/login')
      await page.getByLabel('E-mail').fill(email)
      await page.getByLabel('Password').fill(password)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.waitForURL((url) => !url.pathname.startsWith('/login'))
    })
  },
})

export { expect }

// A box placed at a fraction of a pixel (a product card still sliding in) can measure a 64th of a
// pixel under its height, so a box of 43.95 px or more counts as 44.
const TAP_TARGET_MIN = 43.95

/** Controls of the page (header, admin bar and footer included) smaller than a finger, as "text (width x height)"; links inside running text and hidden honeypots excepted. */
export async function smallTapTargets(page: Page): Promise<string[]> {
  return page.locator('body').evaluate((body, min) => {
    // A checkbox is pressed through its label too: the target is both together.
    const tapArea = (control: HTMLElement) => {
      const boxes = [control, ...((control as HTMLInputElement).labels ?? [])].map((el) => el.getBoundingClientRect())
      const left = Math.min(...boxes.map((b) => b.left))
      const top = Math.min(...boxes.map((b) => b.top))
      return {
        width: Math.max(...boxes.map((b) => b.right)) - left,
        height: Math.max(...boxes.map((b) => b.bottom)) - top,
      }
    }
    const controls = body.querySelectorAll<HTMLElement>('a, button, input:not([type=hidden]), select, textarea, summary')
    return (
      [...controls]
        .filter((control) => control.checkVisibility() && !control.closest('dialog:not([open]), [aria-hidden="true"]'))
        // A link in a sentence is read, not aimed at; one alone in its paragraph is a control like any other.
        .filter((control) => {
          const paragraph = control.closest('p')
          return !paragraph || paragraph.textContent?.trim() === control.textContent?.trim()
        })
        .map((control) => ({ control, box: tapArea(control) }))
        .filter(({ box }) => box.width < min || box.height < min)
        .map(
          ({ control, box }) =>
            `${(control.textContent || control.getAttribute('aria-label') || control.tagName).trim()} (${Math.round(box.width)}x${Math.round(box.height)})`,
        )
    )
  }, TAP_TARGET_MIN)
}

/** The site's public pages of their own (not items), as a visitor reaches them from the menu and the home page. */
export const PUBLIC_PAGES = [
  '/',
  '/about',
  '/services',
  '/support',
  '/impact',
  '/news',
  '/calendar',
  '/photos',
  '/marketplace',
  '/contact',
  '/search?q=distribution',
]
