import fs from 'node:fs'
import type { Page } from '@playwright/test'
import { listEventsForAdmin } from '../../app/modules/events/events.admin-queries.server'
import { EventSchema, type EventFormValues } from '../../app/modules/events/events.schema'
import { createEvent, deleteEvent } from '../../app/modules/events/events.service.server'
import { addDays, addMonths, formatMonth, formatPlainDate, monthOf, todayIn } from '../../app/platform/dates'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

const ZONE = 'America/Antigua'
const THIS_MONTH = monthOf(todayIn(ZONE))
const DEMO_TITLES = new Set([
  'Monthly Food and Clothing Distribution',
  'Cancer Survivors Support Group',
  'Youth Market Day',
  'Hope Gala Fundraising Dinner',
])

// Events a test adds are removed again, so every test starts from the demo calendar.
test.afterEach(async () => {
  for (const event of (await listEventsForAdmin({ timeZone: ZONE })).events) {
    if (!DEMO_TITLES.has(event.title)) await deleteEvent(event.id)
  }
})

function addEvent(values: Partial<EventFormValues> & { title: string; startDate: string }) {
  return createEvent(
    EventSchema.parse({ description: 'All are welcome.', startTime: '18:00', location: 'Church hall', ...values }),
    ZONE,
  )
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toaster]').getByText(text)
}

function monthHeading(page: Page) {
  return page.getByRole('heading', { level: 2 }).first()
}

async function navigateMonths(page: Page) {
  await page.goto('/calendar')
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible()
  await expect(page.getByText('4 upcoming events')).toBeVisible()
  await expect(monthHeading(page)).toHaveText(formatMonth(THIS_MONTH))
  const months = page.getByRole('navigation', { name: 'Months' })

  await months.getByRole('link', { name: /^Next/ }).click()
  await expect(monthHeading(page)).toHaveText(formatMonth(addMonths(THIS_MONTH, 1)))
  await expect(page).toHaveURL(`/calendar?month=${addMonths(THIS_MONTH, 1)}`)
  await months.getByRole('link', { name: /^Previous/ }).click()
  // Each click waits for its month: a second click during the first navigation would be lost.
  await expect(monthHeading(page)).toHaveText(formatMonth(THIS_MONTH))
  await months.getByRole('link', { name: /^Previous/ }).click()
  await expect(monthHeading(page)).toHaveText(formatMonth(addMonths(THIS_MONTH, -1)))
  await months.getByRole('link', { name: 'Today' }).click()
  await expect(monthHeading(page)).toHaveText(formatMonth(THIS_MONTH))
  await expect(page).toHaveURL('/calendar')

  // Across the year end, both ways.
  await page.goto('/calendar?month=2026-12')
  await months.getByRole('link', { name: /^Next/ }).click()
  await expect(monthHeading(page)).toHaveText('January 2027')
  await months.getByRole('link', { name: /^Previous/ }).click()
  await expect(monthHeading(page)).toHaveText('December 2026')
  // The distribution on the last Saturday.
  const december = page.getByRole('region', { name: 'December 2026' })
  await expect(december.getByRole('link', { name: /Monthly Food and Clothing Distribution/ })).toHaveAttribute(
    'href',
    '/calendar/monthly-food-and-clothing-distribution?date=2026-12-26',
  )
}

test('visitors move between months with Previous, Next and Today', async ({ page }) => {
  await page.goto('/calendar')
  await waitForHydration(page)
  await navigateMonths(page)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the months are plain links that work all the same', async ({ page }) => {
    await navigateMonths(page)
  })
})

test('an event opens in a dialog with its own address, and loads on its own', async ({ page }) => {
  await addEvent({ title: 'Harvest Supper', startDate: '2027-02-20', startTime: '23:30', endTime: '23:59', type: 'celebration' })
  await page.goto('/calendar?month=2027-02')
  await waitForHydration(page)
  const link = page.getByRole('link', { name: /Harvest Supper/ })
  await link.click()
  const dialog = page.getByRole('dialog', { name: 'Harvest Supper' })
  await expect(dialog).toBeVisible()
  await expect(page).toHaveURL('/calendar/harvest-supper?date=2027-02-20')
  await expect(page).toHaveTitle(/^Harvest Supper \|/)
  await expect(dialog).toContainText('Celebration')
  await expect(dialog).toContainText('Saturday, February 20, 2027')
  await expect(dialog).toContainText('11:30 PM – 11:59 PM')
  await expect(dialog.getByRole('link', { name: 'Download (.ics)' })).toHaveAttribute(
    'href',
    '/calendar/harvest-supper/event.ics',
  )
  await expect(dialog.getByRole('link', { name: /Google Calendar/ })).toHaveAttribute(
    'href',
    /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&text=Harvest\+Supper&dates=20270220T233000%2F20270220T235900/,
  )
  await expect(dialog.getByRole('link', { name: /Map/ })).toHaveAttribute('href', /google\.com\/maps\/search\/.*Church\+hall/)

  await dialog.getByRole('button', { name: 'Close event' }).click()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL('/calendar?month=2027-02')
  await expect(link).toBeFocused()

  await page.goto('/calendar/harvest-supper?date=2027-02-20')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: 'Harvest Supper' })).toBeVisible()
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /^Harvest Supper \|/)
  await page.getByRole('link', { name: '← Calendar' }).click()
  await expect(monthHeading(page)).toHaveText('February 2027')
})

test('an administrator adds, edits and deletes a one-off event from the calendar', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/calendar?month=2027-02')
  await waitForHydration(page)
  await page.getByRole('link', { name: 'Add an event in February 2027' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Add event' })).toBeVisible()
  await expect(page.getByLabel('Start date')).toHaveValue('2027-02-01')
  await waitForHydration(page)

  await page.getByRole('button', { name: 'Add Event' }).click()
  await expect(page.getByLabel('Title')).toHaveAccessibleDescription('Title is required')
  await expect(page.getByLabel('Location')).toHaveAccessibleDescription('Location is required')
  const problems = page.getByRole('alert').filter({ hasText: 'There is a problem' })
  // In the order of the fields on the page.
  // A date without a time is an all-day event: the time is not asked for.
  await expect(problems.getByRole('link')).toHaveText(['Title is required', 'Location is required', 'Description is required'])
  await expect(problems.getByRole('link', { name: 'Title is required' })).toHaveAttribute('href', '#event-title')

  await page.getByLabel('Title').fill('Valentine Tea')
  await page.getByLabel('Type').selectOption('fundraiser')
  await page.getByLabel('Start date').fill('2027-02-13')
  await page.getByLabel('Start time').fill('15:00')
  await page.getByLabel('End time (optional)').fill('14:00')
  await page.getByLabel('Location').fill('Church hall')
  await page.getByLabel('Description').fill('Tea, cake and music.')
  await page.getByRole('button', { name: 'Add Event' }).click()
  await expect(page.getByLabel('End time (optional)')).toHaveAccessibleDescription('The end must not be before the start')
  await page.getByLabel('End time (optional)').fill('17:00')
  await page.getByRole('button', { name: 'Add Event' }).click()

  await expect(toast(page, 'Event added.')).toBeVisible()
  await expect(page).toHaveURL('/calendar?month=2027-02')
  await page.getByRole('link', { name: /Valentine Tea/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Valentine Tea' })
  await expect(dialog).toContainText('3:00 PM – 5:00 PM')
  await expect(dialog).toContainText('Fundraiser')

  await dialog.getByRole('link', { name: 'Edit event' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Edit event' })).toBeVisible()
  await expect(page.getByLabel('Start time')).toHaveValue('15:00')
  await page.getByLabel('Title').fill('Valentine Tea Party')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(toast(page, 'Event updated.')).toBeVisible()
  // The address stays the same after a new title.
  await expect(page).toHaveURL('/calendar/valentine-tea')
  await expect(page.getByRole('heading', { level: 1, name: 'Valentine Tea Party' })).toBeVisible()

  await page.getByRole('button', { name: 'Delete event' }).click()
  const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete this event?' })
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  await page.getByRole('button', { name: 'Delete event' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(toast(page, 'Event moved to the trash.')).toBeVisible()
  await expect(page).toHaveURL('/calendar?month=2027-02')
  await expect(page.getByRole('link', { name: /Valentine Tea/ })).toHaveCount(0)
})

test('an administrator adds, edits and deletes a repeating event, one date or the whole series', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/events')
  await page.getByRole('link', { name: 'Add event' }).click()
  await waitForHydration(page)
  await page.getByLabel('Title').fill('Youth Choir Practice')
  await page.getByLabel('Start date').fill('2027-03-03')
  await page.getByLabel('Start time').fill('16:30')
  await page.getByLabel('Location').fill('Church hall')
  await page.getByLabel('Description').fill('Singing for ages 8 to 17.')
  await page.getByLabel('Repeats').selectOption('weekly')
  await page.getByLabel('Ends').selectOption('after-count')
  await page.getByLabel('Number of times').fill('3')
  await page.getByRole('button', { name: 'Add Event' }).click()
  await expect(toast(page, 'Event added.')).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: 'Youth Choir Practice' })
  await expect(row).toContainText('Every week on Wednesday, 3 times')

  const practices = page.getByRole('link', { name: /Youth Choir Practice/ })
  await page.goto('/calendar?month=2027-03')
  await expect(practices).toHaveCount(3)

  await practices.nth(1).click()
  const dialog = page.getByRole('dialog', { name: 'Youth Choir Practice' })
  await expect(dialog).toContainText('Wednesday, March 10, 2027')
  await expect(dialog).toContainText('Every week on Wednesday, 3 times')
  await dialog.getByRole('button', { name: 'Delete event' }).click()
  const confirm = page.getByRole('dialog', { name: 'Are you sure you want to delete this event?' })
  await expect(confirm.getByRole('button', { name: 'The whole series' })).toBeVisible()
  await confirm.getByRole('button', { name: 'Only Wed, Mar 10' }).click()
  await expect(toast(page, 'March 10, 2027 was taken out of the series.')).toBeVisible()
  await expect(page).toHaveURL('/calendar?month=2027-03')
  await expect(practices).toHaveCount(2)
  await expect(page.getByRole('link', { name: /Youth Choir Practice/ }).first()).toHaveAttribute('href', /date=2027-03-03$/)

  // Editing the series: one more time, and the skipped date back.
  await page.goto('/admin/events')
  await row.getByRole('link', { name: 'Edit Youth Choir Practice' }).click()
  await expect(page.getByLabel('Wednesday, March 10, 2027')).toBeChecked()
  await page.getByLabel('Wednesday, March 10, 2027').uncheck()
  await page.getByLabel('Number of times').fill('4')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(toast(page, 'Event updated.')).toBeVisible()
  await page.goto('/calendar?month=2027-03')
  await expect(practices).toHaveCount(4)

  await page.goto('/admin/events')
  await row.getByRole('button', { name: 'Delete' }).click()
  await confirm.getByRole('button', { name: 'The whole series' }).click()
  await expect(toast(page, 'Event moved to the trash.')).toBeVisible()
  await expect(row).toHaveCount(0)
  await page.goto('/calendar?month=2027-03')
  await expect(practices).toHaveCount(0)
})

test('an administrator adds an all-day event by giving a date and no time; it is all-day everywhere', async ({
  page,
  signIn,
}) => {
  const today = todayIn(ZONE)
  await signIn()
  await page.goto(`/admin/events/new?from=calendar&date=${today}`)
  await waitForHydration(page)
  await page.getByLabel('Title').fill('Scholarship applications close')
  await page.getByLabel('Type').selectOption('deadline')
  await expect(page.getByLabel('Start time (optional)')).toHaveValue('')
  await page.getByLabel('Location').fill('Ministry office')
  await page.getByLabel('Description').fill('Hand in the forms at the office.')
  await page.getByRole('button', { name: 'Add Event' }).click()
  await expect(toast(page, 'Event added.')).toBeVisible()
  await expect(page).toHaveURL(`/calendar?month=${THIS_MONTH}`)

  // The agenda of the month (a phone), the sidebar, the dialog and its calendar links.
  const agenda = page.locator('.calendar-agenda').getByRole('link', { name: /Scholarship applications close/ })
  await expect(agenda).toContainText('All day')
  const when = `${formatPlainDate(today, 'shortWeekdayDate')}, all day`
  await expect(page.getByRole('complementary', { name: 'Upcoming Events' }).getByRole('listitem').first()).toContainText(
    `Scholarship applications close${when}`,
  )
  await agenda.click()
  const dialog = page.getByRole('dialog', { name: 'Scholarship applications close' })
  await expect(dialog.getByRole('definition').nth(1)).toHaveText('All day')
  const day = (date: string) => date.replaceAll('-', '')
  await expect(dialog.getByRole('link', { name: /Google Calendar/ })).toHaveAttribute(
    'href',
    new RegExp(`&dates=${day(today)}%2F${day(addDays(today, 1))}&`),
  )
  const download = page.waitForEvent('download')
  await dialog.getByRole('link', { name: 'Download (.ics)' }).click()
  const file = await (await download).path()
  expect(fs.readFileSync(file, 'utf8')).toContain(`DTSTART;VALUE=DATE:${day(today)}\r\n`)

  // The home page's upcoming strip: today's all-day event is still to come, first.
  await page.goto('/')
  const strip = page.getByRole('region', { name: 'Upcoming Events' })
  await expect(strip.getByText('The next 8 dates')).toBeVisible()
  await expect(strip.getByRole('link').nth(1)).toHaveText(`${when}Scholarship applications closeMinistry office`)
})

test.describe('on a phone 360 px wide', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  test('the month buttons are tap targets of at least 44 px', async ({ page }) => {
    await page.goto('/calendar')
    const months = page.getByRole('navigation', { name: 'Months' })
    for (const name of [/^Previous/, 'Today', /^Next/]) {
      const box = (await months.getByRole('link', { name }).boundingBox())!
      expect(box.height, `${name}`).toBeGreaterThanOrEqual(44)
      expect(box.width, `${name}`).toBeGreaterThanOrEqual(44)
    }
  })

  test('the lock button never covers the Upcoming Events card, wherever the page is scrolled', async ({ page }) => {
    await page.goto('/calendar')
    const card = page.getByRole('complementary', { name: 'Upcoming Events' })
    const lock = page.getByRole('link', { name: 'Admin sign in' })
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    for (let y = 0; y <= height; y += 120) {
      await page.evaluate((top) => window.scrollTo(0, top), y)
      const [a, b] = [(await card.boundingBox())!, (await lock.boundingBox())!]
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
      expect(overlap, `scrolled to ${y}px`).toBe(false)
    }
  })
})

test('an all-day event over four days is on each of them in the agenda at 360 px and in the grid', async ({ page }) => {
  await addEvent({ title: 'Summer camp', startDate: '2027-06-29', endDate: '2027-07-02', startTime: undefined })
  await page.setViewportSize({ width: 360, height: 740 })
  const agendaDaysOf = (month: string) =>
    page
      .getByRole('region', { name: month })
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: /Summer camp/ }) })
      .getByRole('heading', { level: 3 })
  await page.goto('/calendar?month=2027-06')
  await expect(agendaDaysOf('June 2027')).toHaveText(['Tuesday, June 29, 2027', 'Wednesday, June 30, 2027'])
  await page.goto('/calendar?month=2027-07')
  await expect(agendaDaysOf('July 2027')).toHaveText(['Thursday, July 1, 2027', 'Friday, July 2, 2027'])
  // Every day leads to the event's page, for the day it began.
  const camp = page.getByRole('region', { name: 'July 2027' }).getByRole('link', { name: /Summer camp/ })
  await expect(camp.first()).toHaveAttribute('href', '/calendar/summer-camp?date=2027-06-29')

  await page.setViewportSize({ width: 1280, height: 900 })
  const cells = page
    .getByRole('table', { name: 'Events in July 2027' })
    .getByRole('cell')
    .filter({ has: page.getByRole('link', { name: /Summer camp/ }) })
  await expect(cells).toHaveCount(4)
  expect(await cells.locator('time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime')))).toEqual([
    '2027-06-29',
    '2027-06-30',
    '2027-07-01',
    '2027-07-02',
  ])
})

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('every event name in the month grid is shown whole, under its time', async ({ page }) => {
    await addEvent({ title: 'Scholarship applications close', startDate: '2027-05-03', startTime: undefined, type: 'deadline' })
    await addEvent({
      title: 'Community Christmas Carol Service',
      startDate: '2027-05-04',
      startTime: '18:00',
      type: 'celebration',
    })
    await page.goto('/calendar?month=2027-05')
    const chips = page.getByRole('table', { name: 'Events in May 2027' }).locator('.calendar-chip')
    // With the demo events (the distribution's long name among them).
    await expect(chips.filter({ hasText: 'Monthly Food and Clothing Distribution' })).toHaveCount(1)
    await expect(chips.filter({ hasText: 'Scholarship' })).toHaveText('All dayScholarship applications close')
    await expect(chips.filter({ hasText: 'Carol' })).toHaveText('6:00 PMCommunity Christmas Carol Service')
    // Nothing of a chip's text is cut off or hidden: its content fits its box.
    const cut = await chips.evaluateAll((links) =>
      links
        .filter((link) => link.scrollWidth > link.clientWidth + 1 || link.scrollHeight > link.clientHeight + 1)
        .map((link) => link.textContent),
    )
    expect(cut).toEqual([])
  })

  test('the month is a grid; an administrator adds an event on a day with its plus button', async ({ page, signIn }) => {
    await page.goto('/calendar?month=2027-04')
    const grid = page.getByRole('table', { name: 'Events in April 2027' })
    await expect(grid.getByRole('columnheader')).toHaveText(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'])
    await expect(grid.getByRole('link', { name: /Monthly Food and Clothing Distribution/ })).toBeVisible()
    await expect(grid.getByRole('link', { name: /^Add an event/ })).toHaveCount(0)

    await signIn()
    await page.goto('/calendar?month=2027-04')
    await page.getByRole('link', { name: 'Add an event on Saturday, April 10, 2027' }).click()
    await expect(page.getByLabel('Start date')).toHaveValue('2027-04-10')
    await page.getByLabel('Title').fill('Easter Egg Hunt')
    await page.getByLabel('Start time').fill('10:00')
    await page.getByLabel('Location').fill('Church garden')
    await page.getByLabel('Description').fill('For the little ones.')
    await page.getByRole('button', { name: 'Add Event' }).click()
    await expect(toast(page, 'Event added.')).toBeVisible()
    await expect(page).toHaveURL('/calendar?month=2027-04')
    await grid.getByRole('link', { name: /Easter Egg Hunt/ }).click()
    await expect(page.getByRole('dialog', { name: 'Easter Egg Hunt' })).toContainText('Saturday, April 10, 2027')
  })
})

test('the lock button leads a visitor to sign in and an administrator to event management', async ({ page, signIn }) => {
  await page.goto('/calendar')
  await expect(page.getByRole('link', { name: 'Admin sign in' })).toHaveAttribute('href', '/login?redirectTo=%2Fcalendar')
  await signIn()
  await page.goto('/calendar')
  await page.getByRole('link', { name: 'Manage events' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible()
})
