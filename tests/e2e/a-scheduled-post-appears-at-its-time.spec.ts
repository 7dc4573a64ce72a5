import { listArticlesForAdmin } from '../../app/modules/news/news.queries.server'
import { deleteArticle } from '../../app/modules/news/news.service.server'
import { wallClockIn } from '../../app/platform/dates'
import { E2E_CLOCK_FILE } from '../../playwright.config'
import { createFakeClock } from '../setup/fake-clock'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const TITLE = 'Distribution This Saturday'
// The server's clock runs ahead only in this spec: every other spec sees the real time.
const clock = createFakeClock(E2E_CLOCK_FILE)
test.afterEach(async () => {
  clock.setAhead(0)
  for (const article of await listArticlesForAdmin()) if (article.title === TITLE) await deleteArticle(article.id)
})

test('a post scheduled for later is hidden until its time, then appears by itself', async ({ page, signIn }) => {
  const publishAt = new Date(Math.ceil((Date.now() + 20 * 60_000) / 60_000) * 60_000)
  const { date, time } = wallClockIn(publishAt, 'America/Antigua')
  await signIn()
  await page.goto('/admin/news/new')
  await waitForHydration(page)
  await page.getByLabel('Title').fill(TITLE)
  await page.getByLabel('Content').fill('Food and clothing from 9 AM at the Ministry Centre.')
  await page.getByLabel('Who sees it').selectOption('schedule')
  await page.getByLabel('Day to publish (when scheduled)').fill(date)
  await page.getByLabel(/^Time/).fill(time)
  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(page.getByRole('row', { name: new RegExp(TITLE) })).toContainText('Scheduled for')

  await page.goto('/news')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByText(TITLE)).toHaveCount(0)

  clock.setAhead(publishAt.getTime() - Date.now() + 5_000)
  await page.reload()
  await expect(page.getByRole('link', { name: TITLE }).first()).toBeVisible()
})
