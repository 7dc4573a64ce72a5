import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { formatPlainDate, todayIn } from '../../app/platform/dates'
import { get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// The old site's calendar form asked for a date, not a time: a distribution day or a deadline is all-day.
const { server, admin } = await startServerForFileSignedIn()
const ZONE = 'America/Antigua'

const ALL_DAY = {
  description: 'All day long.',
  location: 'Ministry Centre',
  type: 'deadline',
  repeat: 'none',
  repeatEnds: 'never',
}

async function addEvent(fields: Record<string, string>) {
  return post(server, '/admin/events/new', fields, admin)
}

function parseCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  return calendar
}

const decoded = (html: string) => html.replaceAll('&amp;', '&')

describe('an all-day event', () => {
  it('is saved from a date without a time, stored at the start of its day with its flag', async () => {
    const res = await addEvent({ ...ALL_DAY, title: 'Applications close', startDate: '2027-03-01', startTime: '' })
    expect(res.status).toBe(302)
    const camp = await addEvent({
      ...ALL_DAY,
      title: 'Youth camp',
      type: 'event',
      startDate: '2027-03-02',
      endDate: '2027-03-04',
    })
    expect(camp.status).toBe(302)
    const rows = await queryServerDatabase<{ title: string; all_day: number; starts_at: string; ends_at: string | null }>(
      server,
      "select title, all_day, starts_at, ends_at from events where title in ('Applications close', 'Youth camp') order by starts_at",
    )
    expect(rows.map((row) => ({ ...row, all_day: Number(row.all_day) }))).toEqual([
      { title: 'Applications close', all_day: 1, starts_at: '2027-03-01T04:00:00.000Z', ends_at: null },
      { title: 'Youth camp', all_day: 1, starts_at: '2027-03-02T04:00:00.000Z', ends_at: '2027-03-04T04:00:00.000Z' },
    ])
    const timed = await queryServerDatabase<{ all_day: number }>(
      server,
      "select all_day from events where slug = 'youth-market-day'",
    )
    expect(Number(timed[0].all_day)).toBe(0)
  })

  it('says "All day" in the month, on its page and in its edit form', async () => {
    const month = await (await get(server, '/calendar?month=2027-03')).text()
    expect(month).toMatch(/<time datetime="2027-03-01"(?:(?!<\/td>).)*All day(?:(?!<\/td>).)*Applications close/is)
    const page = await (await get(server, '/calendar/youth-camp')).text()
    expect(page).toContain('<dd>All day, until Thu, Mar 4</dd>')
    expect(page).toMatch(/<time datetime="2027-03-02">Tuesday, March 2, 2027<\/time>/i)
    expect(decoded(page)).toContain('dates=20270302%2F20270305')
    const html = await (await get(server, '/admin/events', admin)).text()
    const id = html
      .split('<tr')
      .find((r) => r.includes('href="/calendar/youth-camp?'))
      ?.match(/href="\/admin\/events\/([0-9a-f-]{36})"/)?.[1]
    const form = await (await get(server, `/admin/events/${id}`, admin)).text()
    expect(form).toMatch(/<input[^>]*name="startDate"[^>]*value="2027-03-02"/)
    expect(form).toMatch(/<input[^>]*name="endDate"[^>]*value="2027-03-04"/)
    expect(form).not.toMatch(/<input[^>]*name="startTime"[^>]*value="/)
  })

  it('is a date in the feed and in its own .ics file (DTSTART;VALUE=DATE), read as such by ical.js', async () => {
    const feed = await (await get(server, '/calendar.ics')).text()
    expect(feed).toContain('DTSTART;VALUE=DATE:20270302\r\nDTEND;VALUE=DATE:20270305\r\n')
    const events = parseCalendar(feed).getAllSubcomponents('vevent')
    const camp = events.find((e) => e.getFirstPropertyValue('summary') === 'Youth camp')!
    const start = camp.getFirstPropertyValue('dtstart') as ICAL.Time
    expect([start.isDate, start.toString()]).toEqual([true, '2027-03-02'])
    expect((camp.getFirstPropertyValue('dtend') as ICAL.Time).toString()).toBe('2027-03-05')

    const own = await (await get(server, '/calendar/applications-close/event.ics')).text()
    const [deadline] = parseCalendar(own).getAllSubcomponents('vevent')
    const day = deadline.getFirstPropertyValue('dtstart') as ICAL.Time
    expect([day.isDate, day.toString()]).toEqual([true, '2027-03-01'])
  })

  it('repeats on its days, with dates taken out of the series', async () => {
    const res = await addEvent({
      ...ALL_DAY,
      title: 'Distribution day',
      type: 'event',
      startDate: '2027-01-30',
      repeat: 'monthly-last-weekday',
      repeatEnds: 'after-count',
      repeatCount: '3',
      skipDate: '2027-02-27',
    })
    expect(res.status).toBe(302)
    const days = async (month: string) =>
      (await (await get(server, `/calendar?month=${month}`)).text()).match(/distribution-day\?date=[\d-]+/g)
    expect(await days('2027-01')).toContain('distribution-day?date=2027-01-30')
    expect(await days('2027-02')).toBeNull()
    expect(await days('2027-03')).toContain('distribution-day?date=2027-03-27')
    const feed = await (await get(server, '/calendar.ics')).text()
    const series = parseCalendar(feed)
      .getAllSubcomponents('vevent')
      .find((e) => e.getFirstPropertyValue('summary') === 'Distribution day')!
    expect(feed).toContain('EXDATE;VALUE=DATE:20270227\r\n')
    const iterator = new ICAL.Event(series).iterator()
    const dates: string[] = []
    for (let next = iterator.next(); next && dates.length < 5; next = iterator.next()) dates.push(next.toString())
    expect(dates).toEqual(['2027-01-30', '2027-03-27'])
  })

  it('is upcoming all through its day, on the calendar and on the home page', async () => {
    const today = todayIn(ZONE)
    expect((await addEvent({ ...ALL_DAY, title: 'Forms due today', startDate: today })).status).toBe(302)
    const when = `${formatPlainDate(today, 'shortWeekdayDate')}, all day`
    const calendar = await (await get(server, '/calendar')).text()
    const sidebar = calendar.slice(calendar.indexOf('id="calendar-upcoming"'))
    expect(sidebar).toMatch(new RegExp(`Forms due today</a><span class="calendar-upcoming-when">${when}</span>`))
    const home = await (await get(server, '/')).text()
    expect(home).toMatch(
      new RegExp(`<time class="event-when" datetime="${today}">${when}</time><span class="event-title">Forms due today`, 'i'),
    )
  })

  it('is refused with a clear message when its times do not fit', async () => {
    const endOnly = await addEvent({ ...ALL_DAY, title: 'Half', startDate: '2027-04-01', endTime: '17:00' })
    expect(endOnly.status).toBe(400)
    expect(await endOnly.text()).toContain('Start time is required when an end time is given')
    const backwards = await addEvent({ ...ALL_DAY, title: 'Backwards', startDate: '2027-04-05', endDate: '2027-04-01' })
    expect(backwards.status).toBe(400)
    expect(await backwards.text()).toContain('The end must not be before the start')
    expect(await queryServerDatabase(server, "select id from events where title in ('Half', 'Backwards')")).toEqual([])
  })
})
