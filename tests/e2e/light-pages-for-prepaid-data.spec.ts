import type { Page } from '@playwright/test'
import { plainPng } from '../fixtures/images'
import { E2E_ADMIN } from '../../playwright.config'
import { expect, failsOnPurpose, test } from './fixtures'
import { waitForHydration } from './hydration'

// Decision 032: pages that need no script ship none, a visitor who saves data gets the smallest
// pictures, and the pages a visitor has read open without a connection.

/** The address of the first event of the calendar, as a visitor follows it. */
async function firstEventPath(page: Page): Promise<string> {
  const response = await page.request.get('/calendar')
  return (await response.text()).match(/href="(\/calendar\/[a-z0-9-]+\?date=[0-9-]+)"/)![1]
}

/** Pathnames of the requests the page makes while `run` goes, of one kind. */
function requestsDuring(page: Page, type: 'script' | 'image') {
  const seen: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === type) seen.push(new URL(request.url()).pathname)
  })
  return seen
}

test('a page a visitor only reads asks for no script at all, and a page with a dialog still does', async ({ page }) => {
  test.setTimeout(90_000)
  const scripts = requestsDuring(page, 'script')
  const readOnly = ['/about', '/services', '/impact', '/news/monthly-food-and-clothing-distribution', await firstEventPath(page)]
  for (const path of readOnly) {
    await page.goto(path)
    await page.waitForLoadState('load')
    // The deferred scripts would start at most two seconds after the load event.
    await page.waitForTimeout(2500)
    expect(scripts, path).toEqual([])
    expect(await page.locator('script').count(), path).toBe(0)
  }
  // The home page's only scripts are its own few lines that pick three products and start offline
  // reading: nothing is fetched, and of the products in the page only three are shown, with their pictures.
  const pictures = requestsDuring(page, 'image')
  await page.goto('/')
  await page.waitForLoadState('load')
  await page.waitForTimeout(2500)
  expect(scripts, '/').toEqual([])
  expect(await page.locator('script').count()).toBe(2)
  const products = page.locator('section', { has: page.locator('#marketplace-highlights') }).locator('li')
  expect(await products.count()).toBeGreaterThan(3)
  await expect(products.locator('visible=true')).toHaveCount(3)
  const hiddenPictures = await products.evaluateAll((items) =>
    items
      .filter((item) => (item as HTMLElement).hidden)
      .flatMap((item) => [...item.querySelectorAll('img')].map((img) => img.currentSrc || img.src)),
  )
  for (const picture of hiddenPictures) expect(pictures).not.toContain(new URL(picture).pathname)

  // The menu works as plain HTML.
  await page.getByRole('navigation', { name: 'Main' }).getByText('Menu', { exact: true }).click()
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About Us', exact: true })).toBeVisible()

  await page.goto('/news')
  await waitForHydration(page)
  expect(scripts.length).toBeGreaterThan(0)
})

test('a signed-in user gets the scripts on the same page (the admin bar)', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/about')
  await waitForHydration(page)
})

/** The widths of the uploaded pictures a page asks for, e.g. [400, 640]. */
async function pictureWidths(page: Page, path: string): Promise<number[]> {
  const pictures = requestsDuring(page, 'image')
  await page.goto(path)
  await page.waitForLoadState('load')
  return pictures.filter((p) => p.startsWith('/media/images/')).map((p) => Number(p.match(/-(\d+)\.\w+$/)![1]))
}

test('a phone that asks to save data gets the smallest pictures that fill their boxes', async ({ browser }) => {
  // A 360 px phone at 2.6 device pixels per CSS pixel (Pixel 7), with and without Save-Data.
  const phone = { ...test.info().project.use, viewport: { width: 360, height: 740 }, screen: { width: 360, height: 740 } }
  const usualContext = await browser.newContext(phone)
  const usual = await pictureWidths(await usualContext.newPage(), '/news')
  expect(Math.max(...usual)).toBeGreaterThanOrEqual(800)
  await usualContext.close()

  const context = await browser.newContext({ ...phone, extraHTTPHeaders: { 'Save-Data': 'on' } })
  const widths = await pictureWidths(await context.newPage(), '/news')
  expect(widths.length).toBeGreaterThan(0)
  // 400 px is the smallest variant of an article's picture, and fills a card as wide as the phone.
  expect(new Set(widths)).toEqual(new Set([400]))
  await context.close()
})

test('a video does not load until it is played when the visitor saves data', async ({ browser }) => {
  const context = await browser.newContext({ ...test.info().project.use, extraHTTPHeaders: { 'Save-Data': 'on' } })
  const page = await context.newPage()
  const html = await (await page.request.get('/photos')).text()
  const video = [...html.matchAll(/href="(\/photos\/[a-z0-9-]+)"/g)].map((m) => m[1])
  let found = false
  for (const path of video) {
    await page.goto(path)
    if ((await page.locator('video').count()) === 0) continue
    await expect(page.locator('video')).toHaveAttribute('preload', 'none')
    found = true
    break
  }
  expect(found, 'a demo video').toBe(true)
  await context.close()
})

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' })

  test('a page read once opens without a connection, and any other address lists the pages kept', async ({ page, context }) => {
    // The home page starts it, without the site's scripts.
    await page.goto('/')
    await page.evaluate(() => navigator.serviceWorker.ready)
    await page.goto('/about')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    const aboutTitle = await page.title()

    await context.setOffline(true)
    await page.goto('/about')
    await expect(page).toHaveTitle(aboutTitle)
    await page.goto('/services')
    await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible()
    const kept = page.getByRole('list').filter({ has: page.getByRole('link', { name: aboutTitle }) })
    await expect(kept.getByRole('link', { name: aboutTitle })).toHaveAttribute('href', '/about')
    await kept.getByRole('link', { name: aboutTitle }).click()
    await expect(page).toHaveURL('/about')

    // Back online, the page comes from the site again.
    await context.setOffline(false)
    const fresh = await page.goto('/services')
    expect(fresh?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toHaveCount(0)
  })

  test('a picture read once shows offline, and one withdrawn is kept no more', async ({ page, context, browser, baseURL }) => {
    // Someone of the team posts an article with a picture, in a browser of their own.
    const team = await browser.newContext({ baseURL })
    const teamPage = await team.newPage()
    await teamPage.goto('/login')
    await teamPage.getByLabel('E-mail').fill(E2E_ADMIN.email)
    await teamPage.getByLabel('Password').fill(E2E_ADMIN.password)
    await teamPage.getByRole('button', { name: 'Sign in', exact: true }).click()
    await teamPage.waitForURL((url) => !url.pathname.startsWith('/login'))
    const image = { name: 'picture.png', mimeType: 'image/png', buffer: await plainPng(900, 600) }
    const fields = { title: 'Withdrawn picture', content: 'Seen once.', imageAlt: 'A picture', publish: 'now', image }
    const posted = await teamPage.request.post('/admin/news/new', {
      multipart: fields,
      headers: { origin: baseURL! },
      maxRedirects: 0,
    })
    expect(posted.status()).toBe(302)

    await page.goto('/')
    await page.evaluate(() => navigator.serviceWorker.ready)
    await page.goto('/news/withdrawn-picture')
    const picture = await page
      .getByRole('img', { name: 'A picture' })
      .evaluate((img: HTMLImageElement) => img.decode().then(() => img.currentSrc))
    const kept = () => page.evaluate(async (url) => !!(await (await caches.open('pictures-v2')).match(url)), picture)
    // 0: no answer at all (offline, and nothing kept).
    const status = (cache: RequestCache) =>
      page.evaluate(
        ([url, mode]) =>
          fetch(url, { cache: mode }).then(
            (r) => r.status,
            () => 0,
          ),
        [picture, cache] as const,
      )
    await expect.poll(kept).toBe(true)
    await context.setOffline(true)
    expect(await status('default')).toBe(200)
    await context.setOffline(false)

    // Moved to the trash: the next time the browser asks, the picture is gone, and so is the worker's copy.
    const { pathname } = new URL(picture)
    const list = await (await teamPage.request.get('/admin/news')).text()
    // The row's edit link follows its title.
    const id = /\/admin\/news\/([0-9a-f-]{36})/.exec(list.slice(list.indexOf('>Withdrawn picture<')))![1]
    expect(
      (await teamPage.request.post('/admin/news', { form: { id }, headers: { origin: baseURL! }, maxRedirects: 0 })).status(),
    ).toBe(302)
    expect((await teamPage.request.get(pathname)).status()).toBe(200)
    failsOnPurpose(page, picture)
    expect(await status('no-cache')).toBe(404)
    await expect.poll(kept).toBe(false)
    await context.setOffline(true)
    expect(await status('default')).toBe(0)
    await context.setOffline(false)
    await team.close()
  })

  test('a signed-in page is never kept', async ({ page, context, signIn }) => {
    await signIn()
    await page.goto('/')
    await page.evaluate(() => navigator.serviceWorker.ready)
    await page.goto('/about')
    await context.setOffline(true)
    await page.goto('/about')
    await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible()
    await expect(page.locator('[data-admin-bar]')).toHaveCount(0)
    await context.setOffline(false)
  })
})

test('a page compressed for one visit, with its stylesheet inside, reads and paints in the browser', async ({ page }) => {
  // Without the page cache (as these tests run) the page is compressed for this one visit.
  const response = await page.goto('/about')
  expect(await response!.headerValue('content-encoding')).toBe('br')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // The inline stylesheet reached the browser whole, as the page sent without compression carries it.
  const plain = await (await page.request.get('/about', { headers: { 'accept-encoding': 'identity' } })).text()
  const sent = plain.match(/<style id="public-stylesheet">([\s\S]*?)<\/style>/)![1]
  const read = await page.evaluate(() => {
    const style = document.getElementById('public-stylesheet') as HTMLStyleElement
    return { text: style.textContent, rules: style.sheet!.cssRules.length }
  })
  expect(read.text).toBe(sent)
  expect(read.rules).toBeGreaterThan(100)
})
