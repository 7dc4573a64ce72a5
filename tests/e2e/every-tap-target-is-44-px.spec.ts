import { EventSchema } from '../../app/modules/events/events.schema'
import { createEvent, deleteEvent } from '../../app/modules/events/events.service.server'
import { createUser, removeUser } from '../../app/modules/users/users.service.server'
import { todayIn } from '../../app/platform/dates'
import { expect, PUBLIC_PAGES, smallTapTargets, test } from './fixtures'

// Many pages each, every one scanned by axe as well.
test.describe.configure({ timeout: 180_000 })

// Visitors and volunteers are on phones: every control they can press is at least 44 px, on every page.
const AUTH_PAGES = ['/login', '/forgot-password']
const ZONE = 'America/Antigua'
// An item of each kind on a page of its own, with its way back to the list.
const ITEM_PAGES = [
  '/news/monthly-food-and-clothing-distribution',
  '/calendar/monthly-food-and-clothing-distribution',
  '/photos/monthly-distribution-morning',
  '/marketplace/banana-bread-loaf',
]
const ADMIN_PAGES = [
  '/admin',
  '/admin/news',
  '/admin/news/new',
  '/admin/events',
  '/admin/events/new',
  '/admin/photos',
  '/admin/products',
  '/admin/products/new',
  '/admin/messages',
  '/admin/pages',
  '/admin/settings',
  '/admin/users',
  '/admin/users/new',
  '/admin/users/invite',
  '/admin/audit',
  '/admin/account',
  '/admin/account/two-step',
  '/admin/trash',
]

async function smallTargetsOn(page: import('@playwright/test').Page, paths: readonly string[]): Promise<string[]> {
  const small: string[] = []
  for (const path of paths) {
    await page.goto(path)
    small.push(...(await smallTapTargets(page)).map((control) => `${path}: ${control}`))
  }
  return small
}

/** The edit page of the first item each admin list links to. */
async function firstEditPages(page: import('@playwright/test').Page): Promise<string[]> {
  const paths: string[] = []
  for (const list of ['/admin/news', '/admin/events', '/admin/photos', '/admin/products', '/admin/users']) {
    await page.goto(list)
    const href = await page.locator(`main table a[href^="${list}/"]`).first().getAttribute('href')
    if (href) paths.push(href)
  }
  return paths
}

test('every control a visitor can press is at least 44 px', async ({ page }) => {
  expect(await smallTargetsOn(page, [...PUBLIC_PAGES, ...ITEM_PAGES, ...AUTH_PAGES])).toEqual([])
})

test('every control an administrator can press is at least 44 px, in the admin area and on public pages', async ({
  page,
  signIn,
}) => {
  await signIn()
  const editPages = await firstEditPages(page)
  expect(editPages).toHaveLength(5)
  expect(await smallTargetsOn(page, [...ADMIN_PAGES, ...editPages, ...PUBLIC_PAGES])).toEqual([])
})

test('on a screen 1280 px wide too, every control a visitor or an administrator can press is at least 44 px', async ({
  page,
  signIn,
}) => {
  // Tablets and touch laptops show the wide layouts: the calendar's grid, the admin's tables.
  await page.setViewportSize({ width: 1280, height: 900 })
  // A name of one short word makes the smallest chip in the calendar's grid.
  const { id } = await createEvent(
    EventSchema.parse({
      title: 'AGM',
      startDate: todayIn(ZONE),
      startTime: '18:00',
      description: 'Members meet.',
      location: 'Hall',
    }),
    ZONE,
  )
  try {
    await page.goto('/calendar')
    await expect(page.getByRole('table').getByRole('link', { name: 'AGM' })).toBeVisible()
    expect(await smallTargetsOn(page, [...PUBLIC_PAGES, ...ITEM_PAGES])).toEqual([])
    await signIn()
    expect(await smallTargetsOn(page, [...ADMIN_PAGES, ...PUBLIC_PAGES])).toEqual([])
  } finally {
    // To the trash, then out of it for good.
    await deleteEvent(id)
    await deleteEvent(id, { fromTrash: true })
  }
})

test('every control a marketplace manager can press is at least 44 px', async ({ page, signIn }) => {
  const manager = { email: 'tap.targets@example.org', password: 'a long enough password' }
  const { id } = await createUser({ ...manager, name: 'Tia Targets', role: 'marketplace' })
  try {
    await signIn(manager.email, manager.password)
    expect(await smallTargetsOn(page, ['/admin/products', '/admin/products/new', '/admin/account', '/marketplace'])).toEqual([])
  } finally {
    await removeUser(id)
  }
})
