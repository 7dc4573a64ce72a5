import type { ElementHandle, Locator, Page } from '@playwright/test'
import { E2E_ADMIN } from '../../playwright.config'
import { listEventsForAdmin } from '../../app/modules/events/events.admin-queries.server'
import { deleteEvent } from '../../app/modules/events/events.service.server'
import { listMediaForAdmin } from '../../app/modules/gallery/gallery.admin-queries.server'
import { deleteMediaItem } from '../../app/modules/gallery/gallery.service.server'
import { listProductsForAdmin } from '../../app/modules/marketplace/marketplace.queries.server'
import { deleteProduct } from '../../app/modules/marketplace/marketplace.service.server'
import { plainPng } from '../fixtures/images'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

/*
 * The administrator's three everyday jobs (a photo, a repeating event, a product with a picture)
 * with the keyboard alone: every control is reached with Tab, shows where the focus is, and works
 * with Enter, Space, arrow keys or typing. A file is chosen through the browser's own file dialog,
 * opened with Space on the file field.
 */

const PHOTO = 'Keyboard Harvest Photo'
const EVENT = 'Keyboard Club Meeting'
const PRODUCT = 'Keyboard Knitted Scarf'

// What a test adds is removed again through the modules, should it stop halfway.
test.afterEach(async () => {
  for (const item of await listMediaForAdmin()) if (item.title === PHOTO) await deleteMediaItem(item.id)
  for (const event of (await listEventsForAdmin({ timeZone: 'America/Antigua' })).events) {
    if (event.title === EVENT) await deleteEvent(event.id)
  }
  for (const product of await listProductsForAdmin()) if (product.name === PRODUCT) await deleteProduct(product.id)
})

interface FocusStop {
  /** The focused element in a few words, for messages. */
  name: string
  /** Its focus indicator is drawn: an outline at least 2 px wide in a colour that shows, or a box shadow. */
  ring: boolean
  isTarget: boolean
}

/** Where the focus is; null when it has left the page for the browser's own controls. */
function focusStop(page: Page, target?: ElementHandle<Node> | null): Promise<FocusStop | null> {
  return page.evaluate((target) => {
    const element = document.activeElement
    if (!element || element === document.body) return null
    const label =
      element.getAttribute('aria-label') ?? (element as HTMLInputElement).labels?.[0]?.textContent ?? element.textContent ?? ''
    const name = `<${element.tagName.toLowerCase()}> ${label.replace(/\s+/g, ' ').trim().slice(0, 40)}`
    const isTarget = element === target
    // A date field's calendar button belongs to the browser, which draws its focus ring itself.
    if (!element.matches(':focus')) return { name: `${name} (the browser's own button)`, ring: true, isTarget }
    const style = getComputedStyle(element)
    const outline =
      style.outlineStyle !== 'none' &&
      parseFloat(style.outlineWidth) >= 2 &&
      !/^transparent$|rgba\(.*,\s*0\)$/.test(style.outlineColor)
    return { name, ring: outline || style.boxShadow !== 'none', isTarget }
  }, target)
}

/** `target` has the focus, shows it, and is on screen. */
async function expectVisibleFocus(page: Page, target: Locator) {
  await expect(target).toBeFocused()
  const stop = await focusStop(page)
  expect(stop?.ring, `${stop?.name} has the focus but shows no focus indicator`).toBe(true)
  await expect(target).toBeInViewport()
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus: that it gets there at all is part of
 * the test. Every stop on the way must show its focus too.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 40 } = {}) {
  const element = await target.elementHandle()
  const key = backwards ? 'Shift+Tab' : 'Tab'
  const passed: string[] = []
  const unmarked: string[] = []
  let stop = await focusStop(page, element)
  while (!stop?.isTarget) {
    if (passed.length === max) {
      throw new Error(`${target} was never reached by ${max} presses of ${key}; the focus went through: ${passed.join(', ')}`)
    }
    await page.keyboard.press(key)
    stop = await focusStop(page, element)
    passed.push(stop?.name ?? '(the browser)')
    if (stop && !stop.ring) unmarked.push(stop.name)
  }
  expect(unmarked, 'Focused without a visible focus indicator').toEqual([])
  await expectVisibleFocus(page, target)
}

/** Opens the file dialog with Space on the focused file field and chooses `files` in it. */
async function chooseFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser', { timeout: 5_000 })
  await page.keyboard.press('Space')
  await (await chooser).setFiles(files)
}

/** Goes to an admin section through the phone's menu: its button, then the section's link. */
async function openSection(page: Page, name: string, { backwards = false } = {}) {
  const nav = page.getByRole('navigation', { name: 'Admin' })
  await tabTo(page, nav.locator('summary'), { backwards })
  await page.keyboard.press('Enter')
  await tabTo(page, nav.getByRole('link', { name, exact: true }).filter({ visible: true }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
  await waitForHydration(page)
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toaster]').getByText(text)
}

/**
 * Enter on the focused `opener` asks `question` in a modal dialog with the focus on Cancel; Escape,
 * or Enter on Cancel, closes it again and gives the focus back to the opener.
 */
async function askAndCancel(page: Page, opener: Locator, question: string, closeWith: 'Escape' | 'Cancel') {
  await page.keyboard.press('Enter')
  const confirm = page.getByRole('dialog', { name: question })
  await expect(confirm).toBeVisible()
  await expectVisibleFocus(page, confirm.getByRole('button', { name: 'Cancel' }))
  await page.keyboard.press(closeWith === 'Escape' ? 'Escape' : 'Enter')
  await expect(confirm).toBeHidden()
  await expectVisibleFocus(page, opener)
  return confirm
}

test('an administrator adds a photo, a repeating event and a product with the keyboard alone', async ({ page }) => {
  test.setTimeout(90_000) // about 30 s; more on a busy machine

  // Sign in.
  await page.goto('/login')
  await waitForHydration(page)
  await tabTo(page, page.getByLabel('E-mail'))
  await page.keyboard.type(E2E_ADMIN.email)
  await tabTo(page, page.getByLabel('Password'))
  await page.keyboard.type(E2E_ADMIN.password)
  await page.keyboard.press('Enter')
  await page.waitForURL((url) => url.pathname.startsWith('/admin'))
  await waitForHydration(page)

  // 1. A photo for the gallery.
  await openSection(page, 'Gallery')
  const files = page.getByLabel('Files', { exact: true })
  await expect(files).toBeEnabled()
  await tabTo(page, files)
  await chooseFiles(page, [{ name: 'harvest.png', mimeType: 'image/png', buffer: await plainPng(900, 600, '#16a34a') }])
  await expect(page.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 20_000 })
  await tabTo(page, page.getByLabel('Title'))
  await page.keyboard.type(PHOTO)
  await tabTo(page, page.getByLabel('Description'))
  await page.keyboard.type('Pumpkins and yams from the community garden.')
  await tabTo(page, page.getByLabel('Category'))
  await page.keyboard.type('Community') // a closed list picks the option whose label is typed
  await expect(page.getByLabel('Category')).toHaveValue('Community')
  await tabTo(page, page.getByLabel('Featured'))
  await page.keyboard.press('Space')
  await expect(page.getByLabel('Featured')).toBeChecked()
  await tabTo(page, page.getByRole('button', { name: 'Upload', exact: true }))
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Uploaded 1 item.')).toBeVisible()
  const photoRow = page.getByRole('row').filter({ hasText: PHOTO })
  await expect(photoRow).toContainText('featured')
  await page.goto('/photos?category=Community')
  await expect(page.getByRole('link', { name: PHOTO, exact: true })).toBeVisible()

  // Its delete question closes with Cancel without deleting, and the focus is back on Delete.
  await page.goto('/admin/photos')
  await waitForHydration(page)
  const photoDelete = photoRow.getByRole('button', { name: 'Delete' })
  await tabTo(page, photoDelete)
  await askAndCancel(page, photoDelete, 'Are you sure you want to delete this photo?', 'Cancel')
  await expect(photoRow).toHaveCount(1)

  // 2. An event on the first Tuesday of the month, three times.
  await openSection(page, 'Events', { backwards: true })
  await tabTo(page, page.getByRole('link', { name: 'Add event' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Add event' })).toBeVisible()
  await waitForHydration(page)
  await tabTo(page, page.getByLabel('Title'))
  await page.keyboard.type(EVENT)
  await tabTo(page, page.getByLabel('Start date'))
  await page.keyboard.type('03022027') // mm dd yyyy, the browser moves on between the parts
  await expect(page.getByLabel('Start date')).toHaveValue('2027-03-02')
  await tabTo(page, page.getByLabel('Start time'))
  await page.keyboard.type('0630P') // hh mm AM/PM
  await expect(page.getByLabel('Start time')).toHaveValue('18:30')
  await tabTo(page, page.getByLabel('Location'))
  await page.keyboard.type('Church hall')
  await tabTo(page, page.getByLabel('Description'))
  await page.keyboard.type('Board games and tea.')
  await tabTo(page, page.getByLabel('Repeats'))
  await page.keyboard.type('Every month, on the same weekday')
  await expect(page.getByLabel('Repeats')).toHaveValue('monthly-weekday')
  await tabTo(page, page.getByLabel('Ends'))
  await page.keyboard.type('After')
  await expect(page.getByLabel('Ends')).toHaveValue('after-count')
  await tabTo(page, page.getByLabel('Number of times'))
  await page.keyboard.type('3')
  await tabTo(page, page.getByRole('button', { name: 'Add Event' }))
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Event added.')).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: EVENT })).toContainText('Every month on the first Tuesday, 3 times')

  await page.goto('/calendar?month=2027-04')
  await waitForHydration(page)
  const meeting = page.getByRole('link', { name: new RegExp(EVENT) })
  await expect(meeting).toHaveCount(1)
  await expect(meeting).toHaveAttribute('href', /date=2027-04-06$/)
  // It opens in a dialog with Enter; Escape closes it and the focus is back on its link.
  await tabTo(page, meeting)
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: EVENT })
  await expect(dialog).toContainText('Tuesday, April 6, 2027')
  // Escape closes the delete question over it, and only that: the event stays open.
  const eventDelete = dialog.getByRole('button', { name: 'Delete event' })
  await tabTo(page, eventDelete)
  await askAndCancel(page, eventDelete, 'Are you sure you want to delete this event?', 'Escape')
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expectVisibleFocus(page, meeting)

  // 3. A product with a picture.
  await page.goto('/admin/products')
  await waitForHydration(page)
  await tabTo(page, page.getByRole('link', { name: 'Add Product' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Add New Item' })).toBeVisible()
  await waitForHydration(page)
  await tabTo(page, page.getByLabel('Name', { exact: true }))
  await page.keyboard.type(PRODUCT)
  await tabTo(page, page.getByLabel('Description'))
  await page.keyboard.type('Warm and soft, in the colours of the flag.')
  await tabTo(page, page.getByLabel('Price (optional)'))
  await page.keyboard.type('18')
  await tabTo(page, page.getByLabel('Category'))
  await page.keyboard.press('ArrowDown') // from General to the next one, without opening the list
  await expect(page.getByLabel('Category')).toHaveValue('clothing')
  const images = page.getByLabel('Images', { exact: true })
  await expect(images).toBeEnabled()
  await tabTo(page, images)
  await chooseFiles(page, [{ name: 'scarf.png', mimeType: 'image/png', buffer: await plainPng(800, 800, '#dc2626') }])
  await expect(page.getByText('Uploaded', { exact: true })).toBeVisible({ timeout: 20_000 })
  await tabTo(page, page.getByRole('button', { name: 'Add Item' }))
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Product added.')).toBeVisible()

  await page.goto('/marketplace')
  await waitForHydration(page)
  const card = page
    .locator('.product-list')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: PRODUCT }) })
  await expect(card).toHaveCount(1)
  await expect(card.getByRole('img').first()).toHaveAttribute('src', /^\/media\//)
  await expect(card.getByText('Clothing', { exact: true })).toBeVisible()
  // Its delete question closes on Escape; asked again, Delete removes the product.
  const productDelete = card.getByRole('button', { name: 'Delete product' })
  await tabTo(page, productDelete)
  const confirm = await askAndCancel(page, productDelete, 'Are you sure you want to delete this product?', 'Escape')
  await expect(card).toHaveCount(1)
  await page.keyboard.press('Enter')
  await tabTo(page, confirm.getByRole('button', { name: 'Delete' }))
  await page.keyboard.press('Enter')
  await expect(toast(page, 'Product moved to the trash.')).toBeVisible()
  await expect(card).toHaveCount(0)
})
