import fs from 'node:fs'
import path from 'node:path'
import { listArticlesForAdmin } from '../../app/modules/news/news.queries.server'
import { deleteArticle } from '../../app/modules/news/news.service.server'
import { elevenMegabyteJpeg, plainPng } from '../fixtures/images'
import { E2E_DATA_DIR } from '../../playwright.config'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const TITLE = 'Harvest festival'

/** Large files go to the browser by path: much faster than their bytes through the protocol. */
function onDisk(name: string, bytes: Buffer): string {
  const file = path.join(E2E_DATA_DIR, name)
  fs.writeFileSync(file, bytes)
  return file
}

test.afterEach(async () => {
  for (const article of await listArticlesForAdmin()) if (article.title === TITLE) await deleteArticle(article.id)
})

test('a file that is too large is caught before sending; chosen files can be previewed and taken out', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/admin/news/new')
  await waitForHydration(page)
  await page.getByLabel('Title').fill(TITLE)
  await page.getByLabel('Content').fill('Pumpkins everywhere.')
  const posts: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url())
  })

  const imageField = page.getByLabel('Image (optional)')
  await imageField.setInputFiles(onDisk('huge.jpg', elevenMegabyteJpeg()))
  // Said at once, before anything is sent.
  await expect(imageField).toHaveAccessibleDescription(/Image file is too large\. Maximum size is 10MB\./)
  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(imageField).toBeFocused()
  expect(posts).toEqual([])
  await expect(page.getByLabel('Title')).toHaveValue(TITLE)
  await expect(page.getByLabel('Content')).toHaveValue('Pumpkins everywhere.')

  const chosen = page.getByRole('list', { name: 'Chosen files' })
  await expect(chosen).toContainText('huge.jpg (11 MB)')
  await chosen.getByRole('button', { name: 'Remove huge.jpg' }).click()
  await expect(chosen).toBeHidden()
  await expect(imageField).not.toHaveAccessibleDescription(/too large/)
  await expect(page.getByRole('status')).toHaveText('huge.jpg removed.')

  await imageField.setInputFiles({ name: 'pumpkins.png', mimeType: 'image/png', buffer: await plainPng(900, 600) })
  await expect(chosen.getByRole('listitem')).toHaveCount(1)
  await expect(chosen).toContainText('pumpkins.png')
  await expect.poll(() => chosen.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(page).toHaveURL('/admin/news')
  const row = page.getByRole('row').filter({ hasText: TITLE })
  await expect(row).toBeVisible()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a post larger than the server reads shows the form again with a notice, in the admin layout', async ({
    page,
    signIn,
  }) => {
    await signIn()
    await page.goto('/admin/news/new')
    await page.getByLabel('Title').fill(TITLE)
    await page.getByLabel('Content').fill('Pumpkins everywhere.')
    // 13 MB, more than the 12 MB the server reads.
    await page
      .getByLabel('Image (optional)')
      .setInputFiles(onDisk('panorama.jpg', Buffer.concat([elevenMegabyteJpeg(), Buffer.alloc(2 * 1024 * 1024)])))
    const answer = page.waitForResponse((res) => res.request().method() === 'POST')
    await page.getByRole('button', { name: 'Post Article' }).click()
    expect((await answer).status()).toBe(413)

    await expect(page.getByRole('alert')).toHaveText(
      'What you sent was larger than 12 MB, the most one form can send, so nothing was saved. Choose smaller or fewer files and send the form again.',
    )
    await expect(page.getByRole('link', { name: 'Site admin' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Add article' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Post Article' })).toBeVisible()
    expect((await listArticlesForAdmin()).some((a) => a.title === TITLE)).toBe(false)
  })
})
