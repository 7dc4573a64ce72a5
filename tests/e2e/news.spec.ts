import { listArticlesForAdmin } from '../../app/modules/news/news.queries.server'
import { seedNews } from '../../app/modules/news/news.demo.server'
import { createArticle, deleteArticle } from '../../app/modules/news/news.service.server'
import { db } from '../../app/platform/db.server'
import { withMediaChange } from '../../app/platform/media/media-change.server'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const DEMO_TITLE = 'Monthly Food and Clothing Distribution'
const DEMO_PATH = '/news/monthly-food-and-clothing-distribution'

// Articles a test adds are removed again, so every test starts from the demo articles.
const created: string[] = []
test.afterEach(async () => {
  for (const id of created.splice(0)) await deleteArticle(id)
})

test('opening an article from the list shows it in a dialog and gives it its own address', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto('/news')
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Latest News' })).toBeVisible()
  const card = page.getByRole('listitem').filter({ hasText: DEMO_TITLE })
  await expect(card.getByText(/^\d+ min read$/)).toBeVisible()
  await expect(card.locator('img')).toHaveAttribute('srcset', /\.jpg 400w/)

  await card.getByRole('link', { name: DEMO_TITLE }).click()
  const dialog = page.getByRole('dialog', { name: DEMO_TITLE })
  await expect(dialog).toBeVisible()
  await expect(page).toHaveURL(DEMO_PATH)
  await expect(page).toHaveTitle(new RegExp(`^${DEMO_TITLE} \\|`))
  await expect(dialog.getByRole('heading', { level: 2, name: 'How you can help' })).toBeVisible()
  await expect(dialog.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute(
    'href',
    /^https:\/\/wa\.me\/\?text=.*news%2Fmonthly-food-and-clothing-distribution/,
  )
  await expect(dialog.getByRole('link', { name: /Facebook/ })).toHaveAttribute(
    'href',
    /^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=http.*news%2Fmonthly-food-and-clothing-distribution$/,
  )
  await dialog.getByRole('button', { name: 'Copy link' }).click()
  await expect(dialog.getByRole('button', { name: 'Link copied' })).toHaveText('Copied')
  await expect(dialog.getByRole('status').filter({ hasText: 'Link copied' })).toHaveCount(1)
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url())

  await dialog.getByRole('button', { name: 'Close article' }).click()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL('/news')
  await expect(card.getByRole('link', { name: DEMO_TITLE })).toBeFocused()

  // Escape closes it too, and the browser's back button.
  await card.getByRole('link', { name: DEMO_TITLE }).click()
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL('/news')
  await card.getByRole('link', { name: DEMO_TITLE }).click()
  await expect(page).toHaveURL(DEMO_PATH)
  await page.goBack()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL('/news')
})

test('an article loaded from its address is a page of its own with its preview tags, and no script', async ({
  page,
  request,
}) => {
  const scripts: string[] = []
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
  await page.goto(DEMO_PATH)
  await expect(page.getByRole('heading', { level: 1, name: DEMO_TITLE })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page).toHaveTitle(new RegExp(`^${DEMO_TITLE} \\| `))

  const ogTitle = await page.locator('meta[property="og:title"]').getAttribute('content')
  expect(ogTitle).toMatch(new RegExp(`^${DEMO_TITLE} \\| `))
  expect(await page.locator('meta[property="og:type"]').getAttribute('content')).toBe('article')
  expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toMatch(
    new RegExp(`^http://127\\.0\\.0\\.1:\\d+${DEMO_PATH}$`),
  )
  expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/^On the last Saturday of every month/)
  const ogImage = (await page.locator('meta[property="og:image"]').getAttribute('content'))!
  expect(ogImage).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/images\/[\w-]+\.jpg$/)
  const image = await request.get(ogImage)
  expect(image.headers()['content-type']).toBe('image/jpeg')
  expect((await image.body()).length).toBeLessThan(300 * 1024)

  // Decision 032: a page that is only read ships no script, so no Copy link button (the address bar has the link).
  await expect(page.getByRole('button', { name: 'Copy link' })).toHaveCount(0)
  expect(scripts).toEqual([])

  // From the article's own page to the list, and the list opens articles in the dialog again.
  await page.getByRole('link', { name: '← All news' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Latest News' })).toBeVisible()
  await waitForHydration(page)
  await page.getByRole('link', { name: DEMO_TITLE }).click()
  await expect(page.getByRole('dialog', { name: DEMO_TITLE })).toBeVisible()
})

test('an unknown article address is a 404 page', async ({ page }) => {
  const response = await page.goto('/news/no-such-article')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
})

test('the news page advertises its RSS feed', async ({ page, request }) => {
  await page.goto('/news')
  const feedLink = page.locator('link[rel="alternate"][type="application/rss+xml"]')
  await expect(feedLink).toHaveAttribute('href', '/news/feed.xml')
  await expect(page.getByRole('link', { name: 'RSS feed' })).toHaveAttribute('href', '/news/feed.xml')
  const feed = await request.get('/news/feed.xml')
  expect(feed.headers()['content-type']).toBe('application/rss+xml; charset=utf-8')
  expect(await feed.text()).toContain(`<title><![CDATA[${DEMO_TITLE}]]></title>`)
})

test('script in a title or text is shown as text, and a javascript: link is not a link', async ({ page }) => {
  const title = '<script>window.pwned = 1</script> Fundraiser <img src=x onerror="window.pwned = 2">'
  const article = await createArticle({
    title,
    content:
      'Come along!\n\n<script>window.pwned = 3</script>\n\n[Click me](javascript:window.pwned=4) and <a href="javascript:window.pwned=5">this</a>\n\n[Our page](https://example.org/fundraiser)',
    imageAlt: '',
  })
  created.push(article.id)

  await page.goto('/news')
  await waitForHydration(page)
  const card = page.getByRole('listitem').filter({ hasText: 'Fundraiser' })
  await expect(card.getByRole('heading', { level: 2 })).toHaveText(title)
  await card.getByRole('link').click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(dialog.getByText('<script>window.pwned = 3</script>')).toBeVisible()
  await expect(dialog.getByText('[Click me](javascript:window.pwned=4)', { exact: false })).toBeVisible()
  await expect(dialog.getByRole('link', { name: 'Click me' })).toHaveCount(0)
  await expect(dialog.getByRole('link', { name: 'this' })).toHaveCount(0)
  await expect(dialog.getByRole('link', { name: 'Our page' })).toHaveAttribute('rel', 'nofollow noopener')
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)

  await page.goto(`/news/${article.slug}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
})

test('more than one page of articles is split into pages', async ({ page }) => {
  for (let i = 1; i <= 10; i++) {
    const article = await createArticle({ title: `Weekly update ${i}`, content: 'Text', imageAlt: '' })
    created.push(article.id)
  }
  await page.goto('/news')
  await expect(page.getByText('Page 1 of 2')).toBeVisible()
  await expect(page.locator('.news-card')).toHaveCount(12)
  await page.getByRole('link', { name: 'Older articles' }).click()
  await expect(page).toHaveURL('/news?page=2')
  await expect(page.locator('.news-card')).toHaveCount(1)
  await expect(page.getByText('Page 2 of 2')).toBeVisible()
})

test('with no articles the page says so, and the lock button leads to sign-in and back', async ({ page }) => {
  for (const article of await listArticlesForAdmin()) await deleteArticle(article.id)
  try {
    await page.goto('/news')
    await expect(page.getByRole('heading', { name: 'No Articles Yet' })).toBeVisible()
    await expect(page.getByText('Check back soon for new updates.')).toBeVisible()

    await page.getByRole('link', { name: 'Admin sign in' }).click()
    await expect(page).toHaveURL('/login?redirectTo=%2Fnews')
    // The address changes before the sign-in page replaces the list, whose sign-up form also asks for an e-mail.
    await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible()
    await page.getByLabel('E-mail').fill('admin@example.org')
    await page.getByLabel('Password').fill('correct horse battery')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page).toHaveURL('/news')
    await expect(page.getByRole('link', { name: 'Manage news' })).toHaveAttribute('href', '/admin/news')
  } finally {
    // Put the demo articles back for the other tests.
    await withMediaChange((media) => media.transaction(db, (trx) => seedNews(trx, media)))
  }
})

test('the lock button covers no card at any width: it ends the page, or floats in the margin beside it', async ({ page }) => {
  for (const width of [412, 800, 1100, 1280, 1600]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/news')
    const lock = page.getByRole('link', { name: 'Admin sign in' })
    await expect(lock).toBeVisible()
    const covered = await lock.evaluate((lockElement) => {
      const box = lockElement.getBoundingClientRect()
      const floats = getComputedStyle(lockElement).position === 'fixed'
      const others = [...document.querySelectorAll('main *')].filter(
        (element) => !element.contains(lockElement) && !lockElement.contains(element),
      )
      return others
        .map((element) => ({ element, rect: element.getBoundingClientRect() }))
        .filter(({ rect }) => rect.width > 0 && rect.height > 0)
        .filter(({ rect }) =>
          // A floating button stays over whatever scrolls under it: it needs the whole column beside the content.
          floats
            ? rect.right > box.left && rect.left < box.right
            : rect.right > box.left && rect.left < box.right && rect.bottom > box.top && rect.top < box.bottom,
        )
        .map(({ element }) => `${element.tagName.toLowerCase()}.${element.className}`)
    })
    expect(covered, `${width} px`).toEqual([])
  }
})
