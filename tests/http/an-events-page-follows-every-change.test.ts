import { describe, expect, it } from 'vitest'
import { addDays, todayIn } from '../../app/platform/dates'
import { get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// An event's page keeps its event between content changes (getEventBySlug): every kind of change
// must still show on the page at once.
const { server, admin } = await startServerForFileSignedIn()

const start = addDays(todayIn('America/Antigua'), 2)
const fields = {
  title: 'Kept walk',
  description: 'A walk along the bay.',
  location: 'Ministry Centre',
  type: 'general',
  repeat: 'weekly',
  repeatEnds: 'never',
  startDate: start,
  startTime: '09:00',
}

async function page(path: string): Promise<string> {
  const response = await get(server, path)
  expect(response.status, path).toBe(200)
  return response.text()
}

/** A date as the event's page writes it, e.g. "Thursday, December 3, 2026". */
const dayLabel = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  })

describe("an event's page", () => {
  it('shows a skipped date, a new title and the trash at once, though its event is kept between changes', async () => {
    expect((await post(server, '/admin/events/new', fields, admin)).status).toBe(302)
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from events where slug = 'kept-walk'")
    const second = addDays(start, 7)
    const address = `/calendar/kept-walk?date=${second}`
    const shown = (html: string) => html.match(/<dt>Date<\/dt><dd><time [^>]*>([^<]+)<\/time>/)?.[1]
    const nextDates = (html: string) => [...html.matchAll(/href="\/calendar\/kept-walk\?date=([\d-]+)"/g)].map((m) => m[1])

    const before = await page(address)
    expect(shown(before)).toBe(dayLabel(second))
    expect(nextDates(before)).toContain(addDays(second, 7))
    // The first date's page lists the second among the next ones.
    expect(nextDates(await page('/calendar/kept-walk'))).toContain(second)

    // One date skipped: its address shows the event's next date instead, and no page lists it.
    expect((await post(server, '/admin/events', { id, scope: 'occurrence', date: second }, admin)).status).toBe(302)
    const afterSkip = await page(address)
    expect(shown(afterSkip)).toBe(dayLabel(start))
    expect(nextDates(afterSkip)).not.toContain(second)
    expect(nextDates(await page('/calendar/kept-walk'))).not.toContain(second)

    // A new title: the address stays, the page says the new one.
    const renamed = await post(server, `/admin/events/${id}`, { ...fields, title: 'Kept bay walk', skippedDates: second }, admin)
    expect(renamed.status).toBe(302)
    for (const path of ['/calendar/kept-walk', address]) {
      expect(await page(path)).toContain('<h1 id="event-title">Kept bay walk</h1>')
    }
    expect(nextDates(await page('/calendar/kept-walk'))).not.toContain(second)

    // The trash: no page at any of its addresses.
    expect((await post(server, '/admin/events', { id }, admin)).status).toBe(302)
    for (const path of ['/calendar/kept-walk', address]) expect((await get(server, path)).status, path).toBe(404)
  })

  it("shows new times and a new description on a date's page, in its next dates and in its Google Calendar link", async () => {
    const walk = { ...fields, title: 'Kept run' }
    expect((await post(server, '/admin/events/new', walk, admin)).status).toBe(302)
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from events where slug = 'kept-run'")
    const address = `/calendar/kept-run?date=${addDays(start, 14)}`
    const google = (html: string) =>
      new URL(html.match(/href="(https:\/\/calendar\.google\.com[^"]+)"/)![1].replaceAll('&amp;', '&')).searchParams
    const before = await page(address)
    expect(google(before).get('dates')).toBe(
      `${addDays(start, 14).replaceAll('-', '')}T090000/${addDays(start, 14).replaceAll('-', '')}T090000`,
    )
    expect(google(before).get('details')).toContain('A walk along the bay.')
    expect(before).toContain('9:00')

    const changed = { ...walk, description: 'A run along the beach.', startTime: '10:30' }
    expect((await post(server, `/admin/events/${id}`, changed, admin)).status).toBe(302)
    const after = await page(address)
    expect(google(after).get('dates')).toBe(
      `${addDays(start, 14).replaceAll('-', '')}T103000/${addDays(start, 14).replaceAll('-', '')}T103000`,
    )
    expect(google(after).get('details')).toContain('A run along the beach.')
    expect(after).toContain('A run along the beach.')
    expect(after).toContain('10:30')
    expect(after).not.toContain('9:00')
  })
})
