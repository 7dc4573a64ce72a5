import { uploadAs } from '../fixtures/finished-upload'
import { plainPng } from '../fixtures/images'
import { listMediaForAdmin } from '../../app/modules/gallery/gallery.admin-queries.server'
import { MediaUploadSchema } from '../../app/modules/gallery/gallery.schema'
import { addMediaItems, deleteMediaItem } from '../../app/modules/gallery/gallery.service.server'
import { listUsersForAdmin } from '../../app/modules/users/users.queries.server'
import { E2E_ADMIN } from '../../playwright.config'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const GARDEN = 'Community Garden'

test('on a 360 px phone every category tab is whole on screen, the chosen one too, after a link in other letters', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 })
  await page.goto('/photos?category=projects')
  await expect(page).toHaveURL('/photos?category=Projects')
  const links = page.getByRole('navigation', { name: 'Categories' }).getByRole('link')
  await expect(links.filter({ hasText: 'Projects' })).toHaveAttribute('aria-current', 'page')
  for (const link of await links.all()) {
    const box = (await link.boundingBox())!
    expect([box.x >= 0, box.x + box.width <= 360], await link.innerText()).toEqual([true, true])
  }
})

test('the category tabs filter the grid, and the category is in the address', async ({ page }) => {
  await page.goto('/photos')
  await waitForHydration(page)
  const tabs = page.getByRole('navigation', { name: 'Categories' })
  await expect(tabs.getByRole('link')).toHaveText(['All', 'Events', 'Education', 'Health', 'Community', 'Projects'])
  await expect(tabs.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page')
  const grid = page.getByRole('list').filter({ has: page.getByRole('link', { name: GARDEN }) })
  await expect(grid.getByRole('listitem')).toHaveCount(8)
  await expect(grid.getByRole('link', { name: 'Video: Beach Clean-up Day' })).toBeVisible()

  await tabs.getByRole('link', { name: 'Health' }).click()
  await expect(page).toHaveURL('/photos?category=Health')
  await expect(tabs.getByRole('link', { name: 'Health' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('listitem').filter({ hasText: 'Flowers of Hope' })).toBeVisible()
  await expect(page.getByRole('link', { name: GARDEN })).toHaveCount(0)

  await tabs.getByRole('link', { name: 'All' }).click()
  await expect(page).toHaveURL('/photos')
  await expect(page.getByRole('link', { name: GARDEN })).toBeVisible()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the tabs are links that load the category, and an item opens as a page', async ({ page }) => {
    await page.goto('/photos')
    await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Projects' }).click()
    await expect(page).toHaveURL('/photos?category=Projects')
    await expect(page.getByRole('link', { name: /^(Young Entrepreneurs Market|Youth Farming Project)$/ })).toHaveCount(2)
    await page.getByRole('link', { name: 'Youth Farming Project' }).click()
    await expect(page).toHaveURL('/photos/youth-farming-project?category=Projects')
    await expect(page.getByRole('heading', { level: 1, name: 'Youth Farming Project' })).toBeVisible()
    // Its neighbours are the category's.
    await page.getByRole('link', { name: '← Previous' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Young Entrepreneurs Market' })).toBeVisible()
  })
})

test('a photo loaded from its address is a page with its date, category, description and preview tags', async ({ page }) => {
  await page.goto('/photos/community-garden')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: GARDEN })).toBeVisible()
  await expect(page.getByRole('img', { name: GARDEN })).toBeVisible()
  await expect(page.getByText(/^\w+ \d{1,2}, \d{4} · Community$/)).toBeVisible()
  await expect(page.getByText(/neighbours grow vegetables/)).toBeVisible()
  await expect(page).toHaveTitle(/^Community Garden \| /)
  expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/\/media\/images\/.+\.jpg$/)
  await page.getByRole('link', { name: '← All photos and videos' }).click()
  await expect(page).toHaveURL('/photos')
})

test('a video loaded from its address has controls and a poster, and plays as MP4', async ({ page }) => {
  await page.goto('/photos/beach-clean-up-day')
  const video = page.locator('video')
  await expect(video).toHaveAttribute('controls', '')
  await expect(video).toHaveAttribute('poster', /\/media\/images\/.+\.jpg$/)
  await expect(video.locator('source')).toHaveAttribute('type', 'video/mp4')
  // Loaded directly, nobody opened it: it waits to be played.
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true
    return v.play()
  })
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0)
  expect(await page.locator('meta[property="og:video:type"]').getAttribute('content')).toBe('video/mp4')
})

test('an item opened from the grid shows in a dialog with its own address; arrows, swipes and Escape work', async ({ page }) => {
  await page.goto('/photos')
  await waitForHydration(page)
  const opener = page.getByRole('link', { name: GARDEN })
  await opener.click()
  const dialog = page.getByRole('dialog', { name: GARDEN })
  await expect(dialog).toBeVisible()
  await expect(page).toHaveURL('/photos/community-garden')
  await expect(dialog.getByText(/^\w+ \d{1,2}, \d{4} · Community$/)).toBeVisible()

  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('dialog', { name: 'Flowers of Hope' })).toBeVisible()
  await expect(page).toHaveURL('/photos/flowers-of-hope')
  await page.keyboard.press('ArrowLeft')
  await expect(page.getByRole('dialog', { name: GARDEN })).toBeVisible()

  // A swipe to the left goes to the next item, to the right back.
  const swipe = (fromX: number, toX: number) =>
    page.locator('.gallery-detail').evaluate(
      (element, [from, to]) => {
        const touch = (x: number) => new Touch({ identifier: 1, target: element, clientX: x, clientY: 300 })
        element.dispatchEvent(
          new TouchEvent('touchstart', { bubbles: true, touches: [touch(from)], changedTouches: [touch(from)] }),
        )
        element.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(to)] }))
      },
      [fromX, toX],
    )
  await swipe(300, 100)
  await expect(page).toHaveURL('/photos/flowers-of-hope')
  await swipe(100, 300)
  await expect(page).toHaveURL('/photos/community-garden')

  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page).toHaveURL('/photos')
  await expect(opener).toBeFocused()
})

test('a video opened from the grid starts playing', async ({ page }) => {
  await page.goto('/photos?category=Events')
  await waitForHydration(page)
  await page.getByRole('link', { name: 'Video: Beach Clean-up Day' }).click()
  const dialog = page.getByRole('dialog', { name: 'Beach Clean-up Day' })
  await expect(page).toHaveURL('/photos/beach-clean-up-day?category=Events')
  const video = dialog.locator('video')
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true)
  // Within Events, the next item is the category's.
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('dialog', { name: 'Monthly Distribution Morning' })).toBeVisible()
  await dialog.page().getByRole('button', { name: 'Close' }).click()
  await expect(page).toHaveURL('/photos?category=Events')
})

test('hostile titles and descriptions stay text in the grid, the dialog and the preview tags', async ({ page }) => {
  const title = `"><script>window.hacked=1</script><img src=x onerror="window.hacked=2">`
  const description = `<b>not bold</b><iframe src="https://example.org"></iframe>`
  const admin = (await listUsersForAdmin()).find((user) => user.email === E2E_ADMIN.email)!
  const file = await uploadAs(admin, await plainPng(800, 600), 'x.png', 'image/png')
  const { slugs } = await addMediaItems(MediaUploadSchema.parse({ title, description, files: [file.id], featured: true }), admin)
  try {
    page.on('dialog', (d) => {
      throw new Error(`a script ran: ${d.message()}`)
    })
    await page.goto('/photos')
    await waitForHydration(page)
    const link = page.getByRole('link', { name: title })
    await expect(link).toBeVisible()
    await link.click()
    const dialog = page.getByRole('dialog', { name: title })
    // The description is Markdown: its markup is shown as text (quotes curled, the address linked).
    await expect(dialog.getByText('<b>not bold</b><iframe src=')).toBeVisible()
    await expect(dialog.locator('iframe, b, script')).toHaveCount(0)

    await page.goto(`/photos/${slugs[0]}`)
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toMatch(
      /^"><script>window\.hacked=1<\/script>/,
    )
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(
      '<b>not bold</b><iframe src=“https://example.org”></iframe>',
    )
    await page.goto('/')
    await expect(page.getByRole('link', { name: title })).toBeVisible()
    expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined()
  } finally {
    for (const item of await listMediaForAdmin()) if (item.title === title) await deleteMediaItem(item.id)
  }
})
