import { listArticlesForAdmin } from '../../app/modules/news/news.queries.server'
import { createArticle, deleteArticle } from '../../app/modules/news/news.service.server'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const TITLE = 'Thank You Volunteers'

test.afterEach(async () => {
  for (const article of await listArticlesForAdmin()) if (article.title === TITLE) await deleteArticle(article.id)
})

test('deleting an article offers Undo, which brings it back; the trash restores too', async ({ page, signIn }) => {
  await createArticle({ title: TITLE, content: 'Forty people helped on Saturday.', imageAlt: '' })
  await signIn()
  await page.goto('/admin/news')
  await waitForHydration(page)
  const row = page.getByRole('row', { name: new RegExp(TITLE) })
  await row.getByRole('button', { name: /Delete/ }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Article moved to the trash.')).toBeVisible()
  await expect(page.getByRole('row', { name: new RegExp(TITLE) })).toHaveCount(0)

  await page.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByRole('row', { name: new RegExp(TITLE) })).toBeVisible()
  await page.goto('/news')
  await expect(page.getByRole('link', { name: TITLE }).first()).toBeVisible()

  await page.goto('/admin/news')
  await waitForHydration(page)
  await page
    .getByRole('row', { name: new RegExp(TITLE) })
    .getByRole('button', { name: /Delete/ })
    .click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  // Leaving the page before the answer would cancel the delete.
  await expect(page.getByRole('row', { name: new RegExp(TITLE) })).toHaveCount(0)
  await page.goto('/admin/trash')
  await page.getByRole('button', { name: `Restore ${TITLE}` }).click()
  await expect(page.getByText('Article restored.')).toBeVisible()
  await page.goto('/admin/news')
  await expect(page.getByRole('row', { name: new RegExp(TITLE) })).toBeVisible()
})
