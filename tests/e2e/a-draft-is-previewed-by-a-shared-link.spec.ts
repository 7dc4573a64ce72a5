import { listArticlesForAdmin } from '../../app/modules/news/news.queries.server'
import { deleteArticle } from '../../app/modules/news/news.service.server'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const TITLE = 'Saturday Distribution: What to Bring'

test.afterEach(async () => {
  for (const article of await listArticlesForAdmin()) if (article.title === TITLE) await deleteArticle(article.id)
})

test('a volunteer previews a draft and someone without an account opens the shared link in a fresh browser', async ({
  page,
  browser,
  signIn,
}) => {
  await signIn()
  await page.goto('/admin/news/new')
  await waitForHydration(page)
  await page.getByLabel('Title').fill(TITLE)
  await page.getByLabel('Content').fill('Bring a bag and your ID card.')
  await page.getByLabel('Who sees it').selectOption('draft')
  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(page).toHaveURL(/\/admin\/news$/)

  await page
    .getByRole('row', { name: new RegExp(TITLE) })
    .getByRole('link', { name: 'Edit' })
    .click()
  await page.getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByText('Preview: this is a draft, not public yet.')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeVisible()
  const shareUrl = await page.getByLabel('Preview link to share').inputValue()
  expect(shareUrl).toMatch(/\/preview\/[0-9a-f-]{36}\.[\w-]{43}$/)

  // Someone else, with no account and no cookies, on a phone.
  const stranger = await browser.newContext()
  const theirPage = await stranger.newPage()
  await theirPage.goto(shareUrl)
  await expect(theirPage.getByRole('heading', { level: 1, name: TITLE })).toBeVisible()
  await expect(theirPage.getByText('Bring a bag and your ID card.')).toBeVisible()
  await expect(theirPage.getByText('Preview: this is a draft, not public yet.')).toBeVisible()
  await expect(theirPage.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
  // Their page has none of the site's scripts; the few lines after the Copy button make it work.
  await stranger.grantPermissions(['clipboard-read', 'clipboard-write'])
  await theirPage.getByRole('button', { name: 'Copy the preview link' }).click()
  await expect(theirPage.getByRole('button', { name: 'Copied the preview link' })).toBeVisible()
  expect(await theirPage.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl)
  expect(await theirPage.evaluate(() => '__reactRouterDataRouter' in window)).toBe(false)
  // The same article is not on the public news page.
  await theirPage.goto('/news')
  await expect(theirPage.getByText(TITLE)).toHaveCount(0)
  await stranger.close()
})
