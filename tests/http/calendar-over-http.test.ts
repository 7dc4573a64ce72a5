import path from 'node:path'
import SQLite from 'better-sqlite3'
import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { formatMonth, monthOf, todayIn } from '../../app/platform/dates'
import { get, post } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()
const ZONE = 'America/Antigua'
const HOSTILE_TITLE = '<script>alert("x")</script> Bake sale; 50% off, \\ all day'

const EVENT = {
  title: 'Choir rehearsal',
  description: 'Bring your voice.',
  startDate: '2027-03-06',
  startTime: '23:30',
  endTime: '23:59',
  location: 'Church hall',
  type: 'meeting',
  repeat: 'none',
  repeatEnds: 'never',
}

async function addEvent(fields: Record<string, string>) {
  return post(server, '/admin/events/new', fields, admin)
}

/** The id of an event, read from the admin list the way an admin finds it (by its link on the site). */
async function eventIdOf(slug: string): Promise<string> {
  const html = await (await get(server, '/admin/events', admin)).text()
  const row = html.split('<tr').find((r) => r.includes(`href="/calendar/${slug}?`))
  const id = row?.match(/href="\/admin\/events\/([0-9a-f-]{36})"/)?.[1]
  if (!id) throw new Error(`${slug} is not in the admin list`)
  return id
}

function parseCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  return calendar
}

describe('the calendar page', () => {
  it('shows the current month with the demo events, the upcoming count and sidebar', async () => {
    const res = await get(server, '/calendar')
    expect(res.status).toBe(200)
    const html = await res.text()
    const month = monthOf(todayIn(ZONE))
    expect(html).toContain(`>${formatMonth(month)}</h2>`)
    // Events are counted once however often they repeat; the lists beside the count say they list dates.
    expect(html).toContain('4 upcoming events (a repeating event counts once)')
    expect(html).toContain('<p class="calendar-upcoming-note">The next 5 dates</p>')
    expect(html).toMatch(/<th scope="col"><abbr title="Sunday">Sun<\/abbr><\/th>/)
    expect(html).toContain('Monthly Food and Clothing Distribution')
    expect(html.match(/class="calendar-upcoming-item"/g)).toHaveLength(5)
    expect(html).toMatch(/<link[^>]* rel="alternate" type="text\/calendar"[^>]*href="\/calendar.ics"/)
  })

  it('moves between months with plain links, across the year end (no JavaScript needed)', async () => {
    const html = await (await get(server, '/calendar?month=2026-12')).text()
    expect(html).toContain('>December 2026</h2>')
    expect(html).toContain('href="/calendar?month=2026-11"')
    expect(html).toContain('href="/calendar?month=2027-01"')
    expect(html).toContain('href="/calendar"')
    const january = await (await get(server, '/calendar?month=2027-01')).text()
    expect(january).toContain('>January 2027</h2>')
    // January 2027 starts on a Friday: the grid opens with December 27, a Sunday.
    expect(january).toMatch(/<tr><td class="calendar-day is-other-month"><time datetime="2026-12-27"/i)
    // The distribution on the last Saturday of the month.
    expect(january).toContain('href="/calendar/monthly-food-and-clothing-distribution?date=2027-01-30"')
    expect(january).not.toContain('date=2027-01-23"')
  })

  it('answers 404 for a month that does not exist', async () => {
    for (const month of ['2026-13', 'abc', '2026-1']) expect((await get(server, `/calendar?month=${month}`)).status).toBe(404)
  })
})

describe('an event', () => {
  it('has its own page with social-preview tags, and 404 when unknown', async () => {
    const res = await get(server, '/calendar/monthly-food-and-clothing-distribution')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<title>Monthly Food and Clothing Distribution | Hearts of Hope Ministry</title>')
    expect(html).toMatch(/<meta property="og:title" content="Monthly Food and Clothing Distribution \| Hearts of Hope Ministry"/)
    expect(html).toMatch(
      /<meta name="description" content="Saturday, \w+ \d+, \d{4}, 9:00 AM – 12:00 PM · Ministry Centre, Antigua\./,
    )
    expect(html).toContain(`<link rel="canonical" href="${server.url}/calendar/monthly-food-and-clothing-distribution"/>`)
    expect(html).toContain('Every month on the last Saturday')
    expect(html).toContain('href="/calendar/monthly-food-and-clothing-distribution/event.ics"')
    expect(html).toContain('https://calendar.google.com/calendar/render?action=TEMPLATE')
    expect((await get(server, '/calendar/no-such-event')).status).toBe(404)
  })

  it('downloads as an .ics file', async () => {
    const res = await get(server, '/calendar/youth-market-day/event.ics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="youth-market-day.ics"')
    const [event] = parseCalendar(await res.text()).getAllSubcomponents('vevent')
    expect(event.getFirstPropertyValue('summary')).toBe('Youth Market Day')
    expect((await get(server, '/calendar/no-such-event/event.ics')).status).toBe(404)
  })
})

describe('the iCalendar feed', () => {
  it('lists every event with its rule, readable by an independent parser', async () => {
    const res = await get(server, '/calendar.ics')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const text = await res.text()
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true)
    const events = parseCalendar(text).getAllSubcomponents('vevent')
    const titles = events.map((e) => e.getFirstPropertyValue('summary'))
    expect(titles).toEqual(
      expect.arrayContaining([
        'Monthly Food and Clothing Distribution',
        'Cancer Survivors Support Group',
        'Youth Market Day',
        'Hope Gala Fundraising Dinner',
      ]),
    )
    const distribution = events.find((e) => e.getFirstPropertyValue('summary') === 'Monthly Food and Clothing Distribution')!
    expect(distribution.getFirstPropertyValue('rrule')?.toString()).toBe('FREQ=MONTHLY;BYDAY=SA;BYSETPOS=-1')
  })
})

describe('an administrator', () => {
  it('adds an event at 23:30, which lands on its own day', async () => {
    const res = await addEvent({ ...EVENT })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/admin/events')
    const html = await (await get(server, '/calendar?month=2027-03')).text()
    expect(html).toContain('href="/calendar/choir-rehearsal?date=2027-03-06"')
    // In the grid cell of March 6, not in the next day's.
    expect(html).toMatch(/<td[^>]*><time datetime="2027-03-06"(?:(?!<\/td>).)*11:30 PM(?:(?!<\/td>).)*Choir rehearsal/is)
  })

  it('goes back to the calendar month when the form was opened from the calendar', async () => {
    const res = await post(
      server,
      '/admin/events/new?from=calendar&date=2027-04-10',
      { ...EVENT, title: 'Spring fair', startDate: '2027-04-10' },
      admin,
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/calendar?month=2027-04')
    const form = await (await get(server, '/admin/events/new?from=calendar&date=2027-04-17', admin)).text()
    expect(form).toMatch(/<input[^>]*name="startDate"[^>]*value="2027-04-17"/)
  })

  it('is told what is missing or wrong', async () => {
    const res = await addEvent({
      title: ' ',
      description: '',
      startDate: '',
      startTime: '',
      location: '',
      repeat: 'none',
      repeatEnds: 'never',
    })
    expect(res.status).toBe(400)
    const html = await res.text()
    for (const message of ['Title is required', 'Description is required', 'Start date is required', 'Location is required']) {
      expect(html).toContain(message)
    }
    // A date without a time is an all-day event.
    expect(html).not.toContain('Start time is required')
    const backwards = await addEvent({ ...EVENT, startTime: '18:00', endTime: '17:00' })
    expect(backwards.status).toBe(400)
    expect(await backwards.text()).toContain('The end must not be before the start')
    const notLast = await addEvent({ ...EVENT, startDate: '2027-03-13', repeat: 'monthly-last-weekday' })
    expect(notLast.status).toBe(400)
    expect(await notLast.text()).toContain('the start date must be the last such weekday of its month')
  })

  it('keeps markup in a title inert on the page and escaped in the feed', async () => {
    expect((await addEvent({ ...EVENT, title: HOSTILE_TITLE, startDate: '2027-05-01' })).status).toBe(302)
    const slug = 'script-alert-x-script-bake-sale-50-off-all-day'
    const page = await (await get(server, `/calendar/${slug}`)).text()
    expect(page).not.toContain('<script>alert("x")</script>')
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Bake sale; 50% off, \\ all day</h1>')
    const month = await (await get(server, '/calendar?month=2027-05')).text()
    expect(month).not.toContain('<script>alert("x")</script>')
    const feed = await (await get(server, '/calendar.ics')).text()
    expect(feed.replace(/\r\n /g, '')).toContain('SUMMARY:<script>alert("x")</script> Bake sale\\; 50% off\\, \\\\ all day\r\n')
    const titles = parseCalendar(feed)
      .getAllSubcomponents('vevent')
      .map((e) => e.getFirstPropertyValue('summary'))
    expect(titles).toContain(HOSTILE_TITLE)
  })

  it('deletes one date of a series, then the whole series, and returns to the calendar', async () => {
    const added = await addEvent({
      ...EVENT,
      title: 'Bible study',
      startDate: '2027-06-02',
      startTime: '19:00',
      repeat: 'weekly',
      repeatEnds: 'after-count',
      repeatCount: '4',
    })
    expect(added.status).toBe(302)
    const id = await eventIdOf('bible-study')
    const june = async () => (await (await get(server, '/calendar?month=2027-06')).text()).match(/bible-study\?date=[\d-]+/g)
    expect(new Set(await june())).toEqual(
      new Set([
        'bible-study?date=2027-06-02',
        'bible-study?date=2027-06-09',
        'bible-study?date=2027-06-16',
        'bible-study?date=2027-06-23',
      ]),
    )

    const one = await post(server, '/admin/events', { id, scope: 'occurrence', date: '2027-06-09', from: 'calendar' }, admin)
    expect(one.status).toBe(302)
    expect(one.headers.get('location')).toBe('/calendar?month=2027-06')
    expect(new Set(await june())).toEqual(
      new Set(['bible-study?date=2027-06-02', 'bible-study?date=2027-06-16', 'bible-study?date=2027-06-23']),
    )
    const feed = await (await get(server, '/calendar.ics')).text()
    expect(feed).toContain('EXDATE;TZID=America/Antigua:20270609T190000')

    const all = await post(server, '/admin/events', { id, scope: 'series' }, admin)
    expect(all.headers.get('location')).toBe('/admin/events')
    expect(await june()).toBeNull()
    expect((await get(server, '/calendar/bible-study')).status).toBe(404)
  })

  it('sees "Failed to add event" when the database refuses the event', async () => {
    // The SQLite file the server uses: the events table is renamed away for a moment.
    const database = new SQLite(path.join(server.database.env.DATA_DIR, 'site.db'))
    database.exec('alter table events rename to events_away')
    try {
      const res = await addEvent({ ...EVENT, title: 'Never saved' })
      expect(res.status).toBe(500)
      expect(await res.text()).toContain('Failed to add event')
    } finally {
      database.exec('alter table events_away rename to events')
      database.close()
    }
    expect((await addEvent({ ...EVENT, title: 'Saved again' })).status).toBe(302)
  })
})

describe('the rest of the site', () => {
  it('lists the calendar and its events in the sitemap and the navigation', async () => {
    const sitemap = await (await get(server, '/sitemap.xml')).text()
    expect(sitemap).toContain(`<loc>${server.url}/calendar</loc>`)
    expect(sitemap).toContain(`<loc>${server.url}/calendar/youth-market-day</loc>`)
    const home = await (await get(server, '/')).text()
    expect(home.match(/href="\/calendar"/g)?.length).toBeGreaterThanOrEqual(3)
    expect(home).toMatch(/href="\/calendar\/monthly-food-and-clothing-distribution\?date=\d{4}-\d{2}-\d{2}"/)
    expect(home).toContain('<p class="section-header-note">The next 8 dates</p>')
  })

  it('sends an administrator from the lock button to event management', async () => {
    const visitor = await (await get(server, '/calendar')).text()
    expect(visitor).toContain('href="/login?redirectTo=%2Fcalendar"')
    const signedIn = await (await get(server, '/calendar', admin)).text()
    expect(signedIn).toMatch(/<a class="admin-entry" aria-label="Manage events"[^>]* href="\/admin\/events"/)
    expect(signedIn).toContain('aria-label="Add an event on ')
  })
})
