import fs from 'node:fs'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { getArticleForEdit, listArticlesForAdmin } from '../../app/modules/news/news.queries.server'
import { createArticle, deleteArticle } from '../../app/modules/news/news.service.server'
import { E2E_DATA_DIR } from '../../playwright.config'
import { elevenMegabyteJpeg, HTML_RENAMED_AS_JPEG, phonePhotoWithLocation, pixelFloodPng, plainPng } from '../fixtures/images'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const IMAGES_DIR = path.join(E2E_DATA_DIR, 'uploads', 'images')

function storedImageFiles(): string[] {
  return fs.existsSync(IMAGES_DIR) ? fs.readdirSync(IMAGES_DIR).sort() : []
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toaster]').getByText(text)
}

// Articles a test adds are removed again (through the service, which also removes their files).
const titlesToRemove = new Set<string>()
test.afterEach(async () => {
  for (const article of await listArticlesForAdmin()) {
    if (titlesToRemove.has(article.title)) await deleteArticle(article.id)
  }
  titlesToRemove.clear()
})

test('an administrator posts an article with a photo and it appears on the news page', async ({ page, signIn }) => {
  titlesToRemove.add('Christmas Hampers Delivered')
  const before = storedImageFiles()
  await signIn()
  await page.goto('/admin/news')
  await page.getByRole('link', { name: 'Add article' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Add article' })).toBeVisible()
  await waitForHydration(page)

  await page.getByLabel('Title').fill('Christmas Hampers Delivered')
  await page.getByLabel('Content').fill('We delivered **60 hampers** this week.\n\n- rice\n- ham\n\nThank you!')
  await page.getByLabel('Image (optional)').setInputFiles({
    name: 'IMG_2041.jpg',
    mimeType: 'image/jpeg',
    buffer: await phonePhotoWithLocation(1600, 1000),
  })
  await page.getByLabel('Image description (optional)').fill('Volunteers loading hampers into a van')

  // Hold the upload until the button has been seen in its busy state.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/admin/news/new*', async (route) => {
    if (route.request().method() === 'POST') await held
    await route.continue()
  })
  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(page.getByRole('button', { name: 'Posting...' })).toBeDisabled()
  release()

  await expect(toast(page, 'Article posted successfully!')).toBeVisible()
  await expect(page).toHaveURL('/admin/news')
  await expect(page.getByRole('row').filter({ hasText: 'Christmas Hampers Delivered' })).toBeVisible()
  expect(storedImageFiles().length).toBe(before.length + 6)

  await page.goto('/news')
  const card = page.getByRole('listitem').filter({ hasText: 'Christmas Hampers Delivered' })
  const image = card.getByRole('img', { name: 'Volunteers loading hampers into a van' })
  await expect(image).toBeVisible()
  // The sideways phone photo is shown upright (portrait).
  await expect(image).toHaveAttribute('width', '1000')
  await expect(image).toHaveAttribute('height', '1600')
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await expect(card).toContainText('We delivered 60 hampers this week.')
})

test('the form says what is missing or wrong, and a refused image stores nothing', async ({ page, signIn }) => {
  titlesToRemove.add('Refused upload')
  const filesBefore = storedImageFiles()
  const articlesBefore = (await listArticlesForAdmin()).length
  await signIn()
  await page.goto('/admin/news/new')
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(page.getByLabel('Title')).toHaveAccessibleDescription('Title is required')
  await expect(page.getByLabel('Content')).toHaveAccessibleDescription(/Content is required/)

  await page.getByLabel('Title').fill('Refused upload')
  await page.getByLabel('Content').fill('Some text')
  const imageField = page.getByLabel('Image (optional)')
  const attempts = [
    {
      file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: HTML_RENAMED_AS_JPEG },
      message: 'Invalid image type. Please upload a JPG, PNG, GIF, or WEBP file.',
    },
    {
      file: { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: elevenMegabyteJpeg() },
      message: 'Image file is too large. Maximum size is 10MB.',
    },
    {
      file: { name: 'flood.png', mimeType: 'image/png', buffer: pixelFloodPng() },
      message: 'Image dimensions are too large. Maximum is 40 megapixels.',
    },
  ]
  for (const { file, message } of attempts) {
    await imageField.setInputFiles(file)
    await page.getByRole('button', { name: 'Post Article' }).click()
    await expect(page.getByLabel('Image (optional)')).toHaveAccessibleDescription(new RegExp(message.replace(/[.()]/g, '\\$&')))
  }
  expect(storedImageFiles()).toEqual(filesBefore)
  expect((await listArticlesForAdmin()).length).toBe(articlesBefore)
})

test('an administrator edits an article, replaces its image, then removes it', async ({ page, signIn }) => {
  titlesToRemove.add('Food drive results')
  titlesToRemove.add('Food drive: the results')
  const { id } = await createArticle({
    title: 'Food drive results',
    content: 'First draft.',
    image: new File([new Uint8Array(await plainPng(1300, 900, '#aa3377'))], 'first.png', { type: 'image/png' }),
    imageAlt: 'First picture',
  })
  const firstFiles = storedImageFiles()
  await signIn()
  await page.goto('/admin/news')
  await page.getByRole('link', { name: 'Edit Food drive results' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Edit article' })).toBeVisible()
  await expect(page.getByLabel('Title')).toHaveValue('Food drive results')
  await expect(page.getByRole('img', { name: 'First picture' })).toBeVisible()

  await page.getByLabel('Title').fill('Food drive: the results')
  await page.getByLabel('Content').fill('We collected 300 cans.')
  await page.getByLabel('Replace the image (optional)').setInputFiles({
    name: 'second.png',
    mimeType: 'image/png',
    buffer: await plainPng(1200, 1200, '#3377aa'),
  })
  await page.getByLabel('Image description (optional)').fill('Second picture')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(toast(page, 'Article updated.')).toBeVisible()
  const secondFiles = storedImageFiles()
  expect(secondFiles.length).toBe(firstFiles.length)
  expect(secondFiles).not.toEqual(firstFiles)
  expect(await getArticleForEdit(id)).toMatchObject({
    title: 'Food drive: the results',
    image: { width: 1200, alt: 'Second picture' },
  })

  // The address stays the same after a new title.
  await page.goto('/news/food-drive-results')
  await expect(page.getByRole('heading', { level: 1, name: 'Food drive: the results' })).toBeVisible()
  await expect(page.getByRole('img', { name: 'Second picture' })).toBeVisible()

  await page.goto(`/admin/news/${id}`)
  await page.getByLabel('Remove the current image').check()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(toast(page, 'Article updated.')).toBeVisible()
  expect((await getArticleForEdit(id))?.image).toBeNull()
  expect(storedImageFiles().length).toBe(firstFiles.length - 6)
  await page.goto('/news/food-drive-results')
  await expect(page.getByRole('main').getByRole('img')).toHaveCount(0)
})

test('deleting asks first and moves to the trash, which removes the files for good; an article already gone counts as deleted', async ({
  page,
  signIn,
}) => {
  titlesToRemove.add('Old announcement')
  const filesBefore = storedImageFiles()
  const { id } = await createArticle({
    title: 'Old announcement',
    content: 'Text',
    image: new File([new Uint8Array(await plainPng(1400, 900))], 'a.png', { type: 'image/png' }),
    imageAlt: '',
  })
  expect(storedImageFiles().length).toBe(filesBefore.length + 6)
  await signIn()
  await page.goto('/admin/news')
  const row = page.getByRole('row').filter({ hasText: 'Old announcement' })

  await row.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete this article?' })
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  await expect(row).toBeVisible()

  await row.getByRole('button', { name: 'Delete' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(toast(page, 'Article moved to the trash.')).toBeVisible()
  await expect(row).toHaveCount(0)
  expect(storedImageFiles().length).toBe(filesBefore.length + 6)
  await page.goto('/admin/trash')
  await page.getByRole('button', { name: 'Delete for good' }).first().click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click()
  await expect(toast(page, 'Article deleted for good.')).toBeVisible()
  expect(storedImageFiles()).toEqual(filesBefore)

  // Deleted meanwhile (another tab): confirming still ends well.
  const second = await createArticle({ title: 'Old announcement', content: 'Again', imageAlt: '' })
  await page.goto('/admin/news')
  await row.getByRole('button', { name: 'Delete' }).click()
  await deleteArticle(second.id)
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(toast(page, 'Article deleted.')).toBeVisible()
  expect(await getArticleForEdit(id)).toBeNull()
})
