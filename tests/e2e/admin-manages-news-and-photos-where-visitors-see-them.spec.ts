import type { Page } from '@playwright/test'
import { plainPng } from '../fixtures/images'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toaster]').getByText(text)
}

test('a visitor sees no admin controls on /news and /photos', async ({ page }) => {
  await page.goto('/news')
  await expect(page.getByRole('link', { name: 'Add article' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Delete article' })).toHaveCount(0)
  await page.goto('/photos')
  await expect(page.getByRole('link', { name: 'Upload' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Delete (photo|video)$/ })).toHaveCount(0)
})

test('an administrator adds and deletes an article on /news itself', async ({ page, signIn }) => {
  const title = 'Back to School Drive'
  await signIn()
  await page.goto('/news')
  await page.getByRole('link', { name: 'Add article' }).click()
  await expect(page).toHaveURL('/admin/news/new?from=news')
  await waitForHydration(page)
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Content').fill('Bags and books for **40 children**.')
  await page.getByRole('button', { name: 'Post Article' }).click()
  await expect(toast(page, 'Article posted successfully!')).toBeVisible()
  await expect(page).toHaveURL('/news')

  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) })
  await waitForHydration(page)
  await card.getByRole('button', { name: 'Delete article' }).click()
  const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete this article?' })
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(toast(page, 'Article moved to the trash.')).toBeVisible()
  await expect(page).toHaveURL('/news')
  await expect(page.getByRole('heading', { name: title })).toHaveCount(0)
})

test('an administrator uploads and deletes a photo on /photos itself', async ({ page, signIn }) => {
  const title = 'Sports Day Relay'
  await signIn()
  await page.goto('/photos')
  await page.getByRole('link', { name: 'Upload' }).click()
  await expect(page).toHaveURL('/admin/photos?from=photos#upload-heading')
  await waitForHydration(page)
  await page.getByLabel('Files', { exact: true }).setInputFiles({
    name: 'relay.png',
    mimeType: 'image/png',
    buffer: await plainPng(1200, 800, '#16a34a'),
  })
  await expect(page.getByText('Uploaded', { exact: true })).toHaveCount(1, { timeout: 30_000 })
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill('The last leg of the relay.')
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(toast(page, 'Uploaded 1 item.')).toBeVisible()
  await expect(page).toHaveURL('/photos')

  const item = page.getByRole('listitem').filter({ hasText: title })
  await expect(item).toHaveCount(1)
  await waitForHydration(page)
  await item.getByRole('button', { name: 'Delete photo' }).click()
  const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete this photo?' })
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(toast(page, 'Moved to the trash.')).toBeVisible()
  await expect(page).toHaveURL('/photos')
  await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveCount(0)
})
