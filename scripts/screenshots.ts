/**
 * npm run screenshots [-- <folder>]
 *
 * Captures every public and admin page of the built site (`npm run build` first; BUILD_DIR is
 * respected) at 360, 768 and 1280 px with Debian's Chromium, into `screenshots/` or the folder
 * given. The server runs on a fresh temporary data folder, so the pages show the demo content (and
 * one all-day event, which the demo lacks); the admin pages are taken signed in, including one item
 * and one edit page of each kind. A marketplace manager, added through the admin's "Add user" form,
 * is pictured too (`manager-…`): where `/admin` leads them, their product pages and a page they are
 * refused. Builds nothing and changes nothing outside the folder.
 */
import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { requireChromium, root, startBenchServer } from '../bench/bench-server'
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/setup/chromium'

const WIDTHS = [360, 768, 1280] as const
const ADMIN = { email: 'admin@example.org', password: 'screenshots-only-password' }
const MANAGER = { name: 'Mia Market', email: 'manager@example.org', password: 'screenshots-only-password' }
const PUBLIC_PAGES: Record<string, string> = {
  home: '/',
  about: '/about',
  services: '/services',
  support: '/support',
  impact: '/impact',
  news: '/news',
  calendar: '/calendar',
  photos: '/photos',
  marketplace: '/marketplace',
  contact: '/contact',
  login: '/login',
  'not-found': '/no-such-page',
}
const ADMIN_LISTS: Record<string, string> = {
  'admin-dashboard': '/admin',
  'admin-news': '/admin/news',
  'admin-news-new': '/admin/news/new',
  'admin-events': '/admin/events',
  'admin-events-new': '/admin/events/new',
  'admin-photos': '/admin/photos',
  'admin-products': '/admin/products',
  'admin-products-new': '/admin/products/new',
  'admin-messages': '/admin/messages',
  'admin-users': '/admin/users',
  'admin-users-new': '/admin/users/new',
  'admin-pages': '/admin/pages?page=home',
  'admin-pages-about': '/admin/pages?page=about',
  'admin-settings': '/admin/settings',
  'admin-account': '/admin/account',
  'admin-account-two-step': '/admin/account/two-step',
  'admin-account-confirm': '/admin/account/confirm?redirectTo=/admin/account/two-step',
  'admin-audit': '/admin/audit',
}
const MANAGER_PAGES: Record<string, string> = {
  // Not the dashboard: `/admin` sends a manager on to their own first section.
  'manager-dashboard': '/admin',
  'manager-products': '/admin/products',
  'manager-products-new': '/admin/products/new',
  // A section only administrators manage: the refusal page.
  'manager-refused': '/admin/users',
}

const buildDir = process.env.BUILD_DIR ?? 'build'
const outDir = path.resolve(process.argv[2] ?? 'screenshots')

/** The first link on `listPath` to an item below `prefix` (not its "new" page), or null. */
async function firstItem(page: Page, listPath: string, prefix: string): Promise<string | null> {
  await page.goto(listPath)
  const hrefs = await page.locator(`a[href^="${prefix}"]`).evaluateAll((links) => links.map((a) => a.getAttribute('href')!))
  return hrefs.map((href) => href.split('?')[0]).find((href) => href.length > prefix.length && !href.endsWith('/new')) ?? null
}

/** One item page of each kind, found through the sitemap, named by kind. */
async function publicItems(page: Page, origin: string): Promise<Record<string, string>> {
  const xml = await (await page.request.get(`${origin}/sitemap.xml`)).text()
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname)
  const items: Record<string, string> = {}
  for (const kind of ['news', 'calendar', 'photos', 'marketplace']) {
    const found = paths.find((p) => p.startsWith(`/${kind}/`))
    if (found) items[`${kind}-item`] = found
  }
  return items
}

async function capture(page: Page, origin: string, name: string, url: string, width: number) {
  await page.goto(origin + url, { waitUntil: 'load' })
  // A full-page picture shows images below the fold too: load them now, and wait for every one.
  // (No named functions inside: tsx would wrap them in a helper the page does not have.)
  await page.evaluate(async () => {
    const images = [...document.images]
    for (const img of images) img.loading = 'eager'
    await Promise.all(
      images.map((img) =>
        img.complete
          ? null
          : new Promise((done) => {
              img.addEventListener('load', done, { once: true })
              img.addEventListener('error', done, { once: true })
            }),
      ),
    )
    // Loaded is not yet painted: decode every picture before the screenshot.
    await Promise.all(images.map((img) => img.decode().catch(() => null)))
  })
  await page.screenshot({ path: path.join(outDir, `${name}-${width}.png`), fullPage: true })
}

async function signIn(page: Page, origin: string, account: { email: string; password: string } = ADMIN) {
  await page.goto(`${origin}/login`)
  await page.getByLabel('E-mail').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
}

/** Sends an admin form as the signed-in page would; a saved form answers with a redirect. */
async function submit(page: Page, origin: string, action: string, form: Record<string, string>) {
  const response = await page.request.post(origin + action, { headers: { origin }, maxRedirects: 0, form })
  if (response.status() !== 302) throw new Error(`${action} answered ${response.status()}`)
}

/** Adds what the demo lacks through the admin pages, as the administrator. */
async function addToDemo(browser: Browser, url: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await signIn(page, url)
  // The demo events all have times: an all-day deadline in two days shows how the calendar draws one.
  const inTwoDays = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
  await submit(page, url, '/admin/events/new', {
    title: 'Scholarship applications close',
    description: 'Last day to hand in applications for the youth scholarship.',
    startDate: inTwoDays,
    location: 'Ministry office',
    type: 'deadline',
    repeat: 'none',
    repeatEnds: 'never',
  })
  // The demo has no one but the administrator.
  await submit(page, url, '/admin/users/new', { ...MANAGER, role: 'marketplace' })
  await context.close()
}

async function main() {
  requireChromium()
  if (!fs.existsSync(path.join(root, buildDir, 'server'))) {
    console.error(`No build in ${buildDir}/: run \`npm run build\` first (or set BUILD_DIR).`)
    process.exit(1)
  }
  fs.mkdirSync(outDir, { recursive: true })
  const server = await startBenchServer({ buildDir, adminPassword: ADMIN.password })
  let browser: Browser | null = null
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
    await addToDemo(browser, server.url)
    let count = 0
    for (const width of WIDTHS) {
      // Reduced motion: cards that fade in one after another are pictured in place.
      const options = { viewport: { width, height: 800 }, reducedMotion: 'reduce' as const }
      const visitor = await browser.newContext(options)
      const anonymous = await visitor.newPage()
      const pages = { ...PUBLIC_PAGES, ...(await publicItems(anonymous, server.url)) }
      for (const [name, url] of Object.entries(pages)) {
        await capture(anonymous, server.url, name, url, width)
        count++
      }
      await visitor.close()

      const adminContext = await browser.newContext(options)
      const admin = await adminContext.newPage()
      await signIn(admin, server.url)
      const adminPages: Record<string, string> = { ...ADMIN_LISTS, 'home-signed-in': '/' }
      for (const [kind, list] of [
        ['news', '/admin/news'],
        ['events', '/admin/events'],
        ['photos', '/admin/photos'],
        ['products', '/admin/products'],
        ['messages', '/admin/messages'],
        ['users', '/admin/users'],
      ]) {
        const item = await firstItem(admin, server.url + list, `${list}/`)
        if (item) adminPages[`admin-${kind}-edit`] = item
      }
      for (const [name, url] of Object.entries(adminPages)) {
        await capture(admin, server.url, name, url, width)
        count++
      }
      await adminContext.close()

      const managerContext = await browser.newContext(options)
      const manager = await managerContext.newPage()
      await signIn(manager, server.url, MANAGER)
      const managerPages = { ...MANAGER_PAGES }
      const product = await firstItem(manager, `${server.url}/admin/products`, '/admin/products/')
      if (product) managerPages['manager-products-edit'] = product
      for (const [name, url] of Object.entries(managerPages)) {
        await capture(manager, server.url, name, url, width)
        count++
      }
      await managerContext.close()
      console.log(`${width} px done`)
    }
    console.log(`${count} screenshots in ${path.relative(process.cwd(), outDir) || '.'}/`)
  } finally {
    await browser?.close()
    await server.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
