import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from '@playwright/test'
import { listMediaForAdmin } from '../../app/modules/gallery/gallery.admin-queries.server'
import { deleteMediaItem } from '../../app/modules/gallery/gallery.service.server'
import { createUser, removeUser } from '../../app/modules/users/users.service.server'
import { E2E_DATA_DIR } from '../../playwright.config'
import { plainPng } from '../fixtures/images'
import { makeLargeVideo, makeVideo } from '../fixtures/videos'
import { cutConnection, expect, test } from './fixtures'
import { waitForHydration } from './hydration'
import { PUBLISHABLE_KIND_NAMES } from '../../app/platform/publication'
import { removeFromTrash } from '../../app/modules/trash/trash.server'

const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-e2e-'))
test.afterAll(() => fs.rmSync(fixtures, { recursive: true, force: true }))

// Items a test adds are removed again (through the service, which also removes their files).
const titlesToRemove = new Set<string>()
test.afterEach(async () => {
  for (const item of await listMediaForAdmin()) {
    if (titlesToRemove.has(item.title)) await deleteMediaItem(item.id)
  }
  titlesToRemove.clear()
})

function toast(page: Page, text: string | RegExp) {
  return page.locator('[data-sonner-toaster]').getByText(text)
}

function storedFileCount(): number {
  const dir = path.join(E2E_DATA_DIR, 'uploads')
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
}

/** Reloads the admin list until no item is still converting. */
async function waitForConversions(page: Page) {
  await expect(async () => {
    await page.reload()
    await expect(page.getByText('Processing', { exact: true })).toHaveCount(0)
  }).toPass({ timeout: 120_000 })
}

test('an administrator uploads two photos and a video with progress, edits, features and deletes them', async ({
  page,
  signIn,
}) => {
  test.setTimeout(120_000)
  titlesToRemove.add('School Prize Giving').add('Prize Giving Speech')
  const clip = await makeVideo(path.join(fixtures, 'prizes.mp4'), { container: 'mp4', size: '320x240' })
  // Earlier specs' deleted items wait in the trash; emptied first, so the count below is this test's alone.
  await removeFromTrash(PUBLISHABLE_KIND_NAMES, null, 1_000)
  const filesBefore = storedFileCount()
  await signIn()
  await page.goto('/admin/photos')
  await waitForHydration(page)

  // The browser checks what is chosen before sending anything, and asks for a file.
  const picker = page.getByLabel('Files', { exact: true })
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await expect(page.getByText('notes.txt is not a valid image or video type')).toBeVisible()
  await page.getByRole('button', { name: 'Remove notes.txt' }).click()
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(page.getByText('Please select at least one file')).toBeVisible()

  // The chunks wait until the busy state has been seen.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/admin/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH') await held
    await route.continue()
  })
  await picker.setInputFiles([
    { name: 'prize-1.png', mimeType: 'image/png', buffer: await plainPng(1200, 800, '#7c3aed') },
    { name: 'prize-2.png', mimeType: 'image/png', buffer: await plainPng(800, 1200, '#f59e0b') },
    { name: 'prizes.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(clip) },
  ])
  await expect(page.getByRole('button', { name: 'Uploading...' })).toBeDisabled()
  await expect(page.getByRole('progressbar')).toHaveCount(3)
  release()
  for (const name of ['prize-1.png', 'prize-2.png', 'prizes.mp4']) {
    await expect(page.getByRole('progressbar', { name })).toHaveAttribute('value', '100', { timeout: 30_000 })
  }
  await expect(page.getByText('Uploaded', { exact: true })).toHaveCount(3)

  await page.getByLabel('Title').fill('School Prize Giving')
  await page.getByLabel('Description').fill('Certificates for the best readers of the term.')
  await expect(page.getByLabel('Category')).toHaveValue('Events')
  await page.getByLabel('Category').selectOption('Education')
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(toast(page, 'Uploaded 3 items.')).toBeVisible()
  // A new, empty form for the next upload.
  await expect(page.getByRole('progressbar')).toHaveCount(0)
  await waitForConversions(page)
  const rows = page.getByRole('row').filter({ hasText: 'School Prize Giving' })
  await expect(rows).toHaveCount(3)
  await expect(rows.filter({ hasText: 'video' })).toHaveCount(1)

  await page.goto('/photos?category=Education')
  await expect(page.getByRole('link', { name: 'School Prize Giving', exact: true })).toHaveCount(2)
  await expect(page.getByRole('link', { name: 'Video: School Prize Giving' })).toHaveCount(1)

  // Edit the video: a new title, another category, featured.
  await page.goto('/admin/photos')
  await rows.filter({ hasText: 'video' }).getByRole('link', { name: 'Edit School Prize Giving' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Edit video' })).toBeVisible()
  await waitForHydration(page)
  await page.getByLabel('Title').fill('Prize Giving Speech')
  await page.getByLabel('Category').selectOption('Community')
  await page.getByLabel('Featured').check()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(toast(page, 'Changes saved.')).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: 'Prize Giving Speech' })).toContainText('featured')
  await page.goto('/')
  await expect(
    page.getByRole('region', { name: 'Featured Moments' }).getByRole('link', { name: 'Video: Prize Giving Speech' }),
  ).toBeVisible()

  // Delete all three after confirming; their files go with them.
  await page.goto('/admin/photos')
  const ours = page.getByRole('row').filter({ hasText: /Prize Giving/ })
  const questions: string[] = []
  for (const left of [2, 1, 0]) {
    await ours.first().getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('dialog', { name: /^Are you sure you want to delete this (photo|video)\?$/ })
    await expect(confirm).toBeVisible()
    questions.push((await confirm.getByRole('paragraph').textContent())!)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(ours).toHaveCount(left)
  }
  expect(questions.sort()).toEqual([
    'Are you sure you want to delete this photo?',
    'Are you sure you want to delete this photo?',
    'Are you sure you want to delete this video?',
  ])
  await expect(toast(page, 'Moved to the trash.').first()).toBeVisible()
  // The files wait in the trash until it is emptied.
  await page.goto('/admin/trash')
  await page.getByRole('button', { name: 'Empty trash' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Empty trash' }).click()
  await expect(toast(page, /deleted for good/)).toBeVisible()
  expect(storedFileCount()).toBe(filesBefore)
})

test('a 30 MB video uploads in 5 MB chunks with a progress bar, survives a cut connection and plays', async ({
  page,
  signIn,
}) => {
  test.setTimeout(240_000)
  titlesToRemove.add('Sponsored Walk')
  const video = await makeLargeVideo(path.join(fixtures, 'sponsored-walk.mp4'), 30)
  expect(fs.statSync(video).size / 1024 / 1024).toBeGreaterThan(28)
  await signIn()
  await page.goto('/admin/photos')
  await waitForHydration(page)

  // The third chunk's connection is cut; the resent chunk waits until the partial progress was seen.
  const requests: string[] = []
  let patches = 0
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/admin/uploads/*', async (route) => {
    const method = route.request().method()
    requests.push(method)
    if (method !== 'PATCH') return route.continue()
    patches++
    expect(Number(route.request().headers()['content-length'] ?? route.request().postDataBuffer()?.length)).toBeLessThanOrEqual(
      5 * 1024 * 1024,
    )
    if (patches === 3) return cutConnection(page, route)
    if (patches === 4) await held
    return route.continue()
  })
  await page.getByLabel('Files', { exact: true }).setInputFiles(video)
  const progress = page.getByRole('progressbar', { name: 'sponsored-walk.mp4' })
  await expect(progress).toBeVisible()
  // Two chunks are in; the resent third one waits: the bar shows part of the file.
  await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThanOrEqual(30)
  expect(Number(await progress.getAttribute('value'))).toBeLessThan(100)
  release()
  // 30 MB through the browser, the proxy and the server: seconds on a quiet machine, more on a busy one.
  await expect(progress).toHaveAttribute('value', '100', { timeout: 120_000 })
  await expect(page.getByText('Uploaded', { exact: true })).toBeVisible()
  // After the cut, the browser asked the server how much it had and went on from there.
  expect(requests.indexOf('HEAD')).toBeGreaterThan(requests.indexOf('PATCH'))
  expect(patches).toBe(Math.ceil(fs.statSync(video).size / (5 * 1024 * 1024)) + 1)

  await page.getByLabel('Title').fill('Sponsored Walk')
  await page.getByLabel('Description').fill('Ten kilometres along the coast for the youth programme.')
  await page.getByRole('button', { name: 'Upload', exact: true }).click()
  await expect(toast(page, 'Uploaded 1 item.')).toBeVisible()
  await waitForConversions(page)

  await page.goto('/photos/sponsored-walk')
  const player = page.locator('video')
  await expect(player).toHaveAttribute('poster', /\/media\/images\/.+\.jpg$/)
  const src = (await player.locator('source').getAttribute('src'))!
  expect(src).toMatch(/\.mp4$/)
  const head = await page.request.get(src, { headers: { range: 'bytes=0-15' } })
  expect(head.status()).toBe(206)
  expect(head.headers()['content-type']).toBe('video/mp4')
  await player.evaluate((v: HTMLVideoElement) => {
    v.muted = true
    return v.play()
  })
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0)
  expect(await player.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([1280, 720])
})

test('a marketplace manager reaches none of the gallery management', async ({ page, signIn }) => {
  const manager = { email: 'mila@example.org', password: 'milas own password' }
  const { id } = await createUser({ ...manager, name: 'Mila Market', role: 'marketplace' })
  try {
    await signIn(manager.email, manager.password)
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Gallery' })).toHaveCount(0)
    for (const url of ['/admin/photos', '/admin/photos/00000000-0000-4000-8000-000000000000']) {
      await page.goto(url)
      await expect(page.getByRole('heading', { name: 'Access denied', level: 1 })).toBeVisible()
    }
    // The gallery's lock button takes them to their own pages.
    await page.goto('/photos')
    await page.getByRole('link', { name: 'Your admin pages' }).click()
    await expect(page).toHaveURL(/\/admin\/products$/)
  } finally {
    await removeUser(id)
  }
})
