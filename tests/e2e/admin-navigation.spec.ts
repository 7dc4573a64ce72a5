import type { Page } from '@playwright/test'
import { sectionsFor } from '../../app/platform/access'
import { adminNav } from './admin-nav'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

// Every page an administrator sees, in navigation order; the phone's menu ends with the way back to the public site.
const SECTIONS = sectionsFor({ role: 'admin' }).map((section) => section.label)
const ADMIN_LINKS = [...SECTIONS, 'Guide', 'View site']
// Messages may carry its unread count.
const LINK_TEXTS = ADMIN_LINKS.map((label) => new RegExp(`^${label}`))
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

function menuButton(page: Page) {
  return adminNav(page).locator('summary')
}

/** The top of every link of the admin navigation that is shown. */
async function linkTops(page: Page): Promise<number[]> {
  return adminNav(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => (link as HTMLElement).getBoundingClientRect().top))
}

/** How far the navigation's links reach past the sign-out button's right edge, the header's own (0 when they stay inside). */
async function overhang(page: Page): Promise<number> {
  const edge = (await page.getByRole('button', { name: 'Sign out' }).boundingBox())!
  const rights = await adminNav(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().right))
  return Math.max(0, Math.max(...rights) - (edge.x + edge.width))
}

test('on a wide screen the admin navigation is one row inside the header, and a section more wraps', async ({ page, signIn }) => {
  await page.setViewportSize(DESKTOP)
  await signIn()
  await page.goto('/admin/messages')
  await expect(menuButton(page)).toBeHidden()
  const links = adminNav(page).getByRole('link')
  await expect(links).toHaveText(SECTIONS.map((label) => new RegExp(`^${label}`)))
  await expect(adminNav(page).getByRole('link', { name: /^Messages/ })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('banner').getByRole('link', { name: 'View site' })).toBeVisible()

  // With an unread count on Messages, the sections still fit in one row.
  await page.locator('.admin-nav-wide .admin-nav').evaluate((list) => {
    const messages = list.querySelector('a[href="/admin/messages"]')!
    if (!messages.querySelector('.admin-badge')) messages.insertAdjacentHTML('beforeend', ' <span class="admin-badge">12</span>')
  })
  expect(new Set(await linkTops(page)).size).toBe(1)
  expect(await overhang(page)).toBe(0)

  // A section more may go to a second row, never past the header's edge.
  await page.locator('.admin-nav-wide .admin-nav').evaluate((list) => {
    const gallery = [...list.querySelectorAll('li')].find((li) => li.textContent === 'Gallery')!
    const another = gallery.cloneNode(true) as HTMLElement
    another.querySelector('a')!.textContent = 'Volunteers'
    gallery.after(another)
  })
  await expect(links).toHaveCount(SECTIONS.length + 1)
  expect(new Set(await linkTops(page)).size).toBeLessThanOrEqual(2)
  expect(await overhang(page)).toBe(0)
})

test('on a phone the admin links sit in a menu that opens, marks the current page and closes', async ({ page, signIn }) => {
  await page.setViewportSize(PHONE)
  await signIn()
  await page.goto('/admin/messages')
  await waitForHydration(page)
  const links = adminNav(page).getByRole('link')
  await expect(links).toHaveCount(0)

  await menuButton(page).click()
  await expect(links).toHaveText(LINK_TEXTS)
  await expect(adminNav(page).getByRole('link', { name: /^Messages/ })).toHaveAttribute('aria-current', 'page')
  // A compact menu: two links side by side.
  const tops = await linkTops(page)
  expect(new Set(tops).size).toBeLessThan(tops.length)

  await page.keyboard.press('Escape')
  await expect(links).toHaveCount(0)
  await expect(menuButton(page)).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(links).toHaveText(LINK_TEXTS)
  await adminNav(page).getByRole('link', { name: 'Page texts' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Page texts' })).toBeVisible()
  await expect(links).toHaveCount(0)
})

test('the first Tab on an admin page offers to skip the navigation, and Enter moves on to the page', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/photos')
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('main')).toBeFocused()
  // The next Tab lands in the page, not in the header.
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true)
})

test('the page-text editors are chosen from a row of buttons without list bullets', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/pages')
  const tabs = page.getByRole('navigation', { name: 'Pages' }).getByRole('listitem')
  await expect(tabs.first()).toBeVisible()
  for (const style of await tabs.evaluateAll((items) => items.map((item) => getComputedStyle(item).listStyleType))) {
    expect(style).toBe('none')
  }
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the phone menu still opens and leads to the chosen page', async ({ page, signIn }) => {
    await page.setViewportSize(PHONE)
    await signIn()
    await page.goto('/admin')
    await menuButton(page).click()
    await adminNav(page).getByRole('link', { name: 'Site settings' }).click()
    await expect(page).toHaveURL(/\/admin\/settings$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Site settings' })).toBeVisible()
  })
})
