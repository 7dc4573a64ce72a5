import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { instantIn } from '~/platform/dates'
import { buildCalendarFile, googleCalendarUrl } from './events.calendar-apps.server'
import type { EventRecord } from './events.records.server'
import { nextOccurrences } from './events.recurrence.server'

const ORIGIN = 'https://www.example.org'
const HOSTILE = 'Bake sale; "fun", <script>alert(1)</script> \\ back\\slash\r\nBEGIN:VEVENT\r\nSUMMARY:injected'

function event(zone: string, date: string, time: string, rest: Partial<EventRecord>): EventRecord {
  const startsAt = instantIn(date, time, zone)
  return {
    id: crypto.randomUUID(),
    slug: 'event',
    title: 'Event',
    description: 'About it',
    location: 'Ministry Centre',
    type: 'event',
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 3 * 3_600_000).toISOString(),
    allDay: false,
    repeat: 'none',
    repeatUntil: null,
    repeatCount: null,
    skippedDates: [],
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-02T10:00:00.000Z',
    ...rest,
  }
}

/** Parses with ical.js (an independent parser) and registers the file's time zones with it. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text))
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone)
  return calendar
}

function firstStarts(vevent: ICAL.Component, count: number): string[] {
  const iterator = new ICAL.Event(vevent).iterator()
  const starts: string[] = []
  for (let next = iterator.next(); next && starts.length < count; next = iterator.next()) {
    starts.push(next.toJSDate().toISOString())
  }
  return starts
}

describe('the iCalendar feed', () => {
  const zone = 'America/Antigua'
  const hostile = event(zone, '2026-11-14', '23:30', {
    slug: 'bake-sale',
    title: HOSTILE,
    description: 'Line one\nLine two, with; marks',
    type: 'fundraiser',
  })
  const distribution = event(zone, '2026-10-31', '09:00', {
    slug: 'distribution',
    title: 'Monthly Food and Clothing Distribution with a title long enough to be folded over several lines',
    repeat: 'monthly-last-weekday',
    repeatUntil: '2027-03-27',
    skippedDates: ['2026-12-26'],
  })
  const text = buildCalendarFile([hostile, distribution], { name: 'Hearts of Hope, Antigua', origin: ORIGIN, timeZone: zone })

  it('is made of CRLF lines of at most 75 octets', () => {
    expect(text.endsWith('END:VCALENDAR')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)
    expect(text).toMatch(/\r\n [^\r\n]/)
    // The calendar's own properties come before its first component (RFC 5545: calprops, then components).
    const lines = text.split('\r\n')
    const firstComponent = lines.findIndex((line, i) => i > 0 && line.startsWith('BEGIN:'))
    const afterComponents = lines.slice(firstComponent).filter((line) => /^[A-Z-]+[;:]/.test(line) && !line.startsWith(' '))
    let depth = 0
    for (const line of afterComponents) {
      if (line.startsWith('BEGIN:')) depth++
      else if (line.startsWith('END:')) depth--
      else if (line !== 'END:VCALENDAR') expect(depth, `${line} is outside every component`).toBeGreaterThan(0)
    }
  })

  it('parses with an independent parser and gives back the same texts, markup and line breaks inert', () => {
    const calendar = parse(text)
    // NAME (RFC 7986) is text like SUMMARY; this parser leaves it as written.
    expect(text).toContain('\r\nNAME:Hearts of Hope\\, Antigua\r\n')
    const events = calendar.getAllSubcomponents('vevent')
    expect(events).toHaveLength(2)
    const [first] = events
    expect(first.getFirstPropertyValue('summary')).toBe(HOSTILE.replace(/\r\n/g, '\n'))
    expect(first.getFirstPropertyValue('description')).toBe('Line one\nLine two, with; marks')
    expect(first.getFirstPropertyValue('location')).toBe('Ministry Centre')
    expect(first.getFirstPropertyValue('url')).toBe(`${ORIGIN}/calendar/bake-sale`)
    expect(first.getFirstPropertyValue('categories')).toBe('Fundraiser')
    // The id alone, so that the feed read at another address does not duplicate every event.
    expect(first.getFirstPropertyValue('uid')).toBe(hostile.id)
    // The escaped text cannot start a component of its own.
    expect(text.match(/^BEGIN:VEVENT$/gm)).toHaveLength(2)
    expect(text.replace(/\r\n /g, '')).toContain(
      'SUMMARY:Bake sale\\; "fun"\\, <script>alert(1)</script> \\\\ back\\\\slash\\nBEGIN:',
    )
  })

  it('gives local times with the time zone, so 23:30 stays on its day', () => {
    const [first] = parse(text).getAllSubcomponents('vevent')
    expect(text).toContain('DTSTART;TZID=America/Antigua:20261114T233000')
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:America/Antigua')
    const start = first.getFirstPropertyValue('dtstart') as ICAL.Time
    expect(start.toJSDate().toISOString()).toBe('2026-11-15T03:30:00.000Z')
    expect(text).toMatch(/DTSTAMP:\d{8}T\d{6}Z/)
  })

  it('writes a series as RRULE with EXDATE, and the parser expands it to our own occurrences', () => {
    const [, series] = parse(text).getAllSubcomponents('vevent')
    expect(text).toContain('RRULE:FREQ=MONTHLY;UNTIL=20270327T130000Z;BYDAY=SA;BYSETPOS=-1\r\n')
    expect(series.getFirstPropertyValue('rrule')?.toString()).toBe('FREQ=MONTHLY;BYDAY=SA;BYSETPOS=-1;UNTIL=20270327T130000Z')
    expect(text).toContain('EXDATE;TZID=America/Antigua:20261226T090000')
    const ours = nextOccurrences(distribution, new Date(distribution.startsAt), 10, zone).map((o) => o.startsAt.toISOString())
    expect(ours).toEqual([
      '2026-10-31T13:00:00.000Z',
      '2026-11-28T13:00:00.000Z',
      '2027-01-30T13:00:00.000Z',
      '2027-02-27T13:00:00.000Z',
      '2027-03-27T13:00:00.000Z',
    ])
    expect(firstStarts(series, 10)).toEqual(ours)
  })

  it('keeps a weekly series at its local time across daylight saving (New York)', () => {
    const nyc = 'America/New_York'
    const weekly = event(nyc, '2026-10-24', '09:00', { repeat: 'weekly', repeatCount: 4 })
    const [vevent] = parse(buildCalendarFile([weekly], { name: 'x', origin: ORIGIN, timeZone: nyc })).getAllSubcomponents(
      'vevent',
    )
    const ours = nextOccurrences(weekly, new Date(weekly.startsAt), 10, nyc).map((o) => o.startsAt.toISOString())
    expect(ours).toEqual([
      '2026-10-24T13:00:00.000Z',
      '2026-10-31T13:00:00.000Z',
      '2026-11-07T14:00:00.000Z',
      '2026-11-14T14:00:00.000Z',
    ])
    expect(firstStarts(vevent, 10)).toEqual(ours)
  })

  it('offers a Google Calendar link for the occurrence, with the rule of a series', () => {
    const url = new URL(
      googleCalendarUrl(
        distribution,
        { date: '2026-11-28', startsAt: '2026-11-28T13:00:00.000Z', endsAt: '2026-11-28T16:00:00.000Z', allDay: false },
        { origin: ORIGIN, timeZone: zone },
      ),
    )
    expect(url.origin).toBe('https://calendar.google.com')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      action: 'TEMPLATE',
      text: distribution.title,
      dates: '20261128T090000/20261128T120000',
      ctz: zone,
      location: 'Ministry Centre',
      recur: 'RRULE:FREQ=MONTHLY;BYDAY=SA;BYSETPOS=-1;UNTIL=20270327T130000Z',
    })
  })
})

describe('all-day events in calendar apps', () => {
  // East of UTC, so that the start of a local day is the day before in UTC.
  const zone = 'Pacific/Auckland'
  const allDay = (date: string, rest: Partial<EventRecord>) => event(zone, date, '00:00', { endsAt: null, allDay: true, ...rest })
  const deadline = allDay('2026-11-30', { slug: 'deadline' })
  const camp = allDay('2026-12-01', { slug: 'camp', endsAt: instantIn('2026-12-03', '00:00', zone).toISOString() })
  const distribution = allDay('2026-10-31', {
    slug: 'distribution',
    repeat: 'monthly-last-weekday',
    repeatUntil: '2027-01-30',
    skippedDates: ['2026-12-26'],
  })
  const text = buildCalendarFile([deadline, camp, distribution], { name: 'x', origin: ORIGIN, timeZone: zone })

  it('are dates (DTSTART;VALUE=DATE) with DTEND the day after the last, read as dates by an independent parser', () => {
    const [first, second, third] = parse(text).getAllSubcomponents('vevent')
    expect(text).toContain('DTSTART;VALUE=DATE:20261130\r\nDTEND;VALUE=DATE:20261201\r\n')
    expect(text).toContain('DTSTART;VALUE=DATE:20261201\r\nDTEND;VALUE=DATE:20261204\r\n')
    const start = first.getFirstPropertyValue('dtstart') as ICAL.Time
    expect([start.isDate, start.toString()]).toEqual([true, '2026-11-30'])
    expect((second.getFirstPropertyValue('dtend') as ICAL.Time).toString()).toBe('2026-12-04')
    // A series: UNTIL and EXDATE are dates like its start, and the dates are ours.
    expect(text).toContain('RRULE:FREQ=MONTHLY;BYDAY=SA;BYSETPOS=-1;UNTIL=20270130\r\nEXDATE;VALUE=DATE:20261226\r\n')
    const iterator = new ICAL.Event(third).iterator()
    const days: string[] = []
    for (let next = iterator.next(); next && days.length < 10; next = iterator.next()) days.push(next.toString())
    const ours = nextOccurrences(distribution, new Date(distribution.startsAt), 10, zone).map((o) => o.date)
    expect(ours).toEqual(['2026-10-31', '2026-11-28', '2027-01-30'])
    expect(days).toEqual(ours)
  })

  it('open Google Calendar on the days, the end being the day after the last', () => {
    const occurrence = { date: '2026-12-01', startsAt: camp.startsAt, endsAt: camp.endsAt, allDay: true }
    const url = new URL(googleCalendarUrl(camp, occurrence, { origin: ORIGIN, timeZone: zone }))
    expect(url.searchParams.get('dates')).toBe('20261201/20261204')
    const series = nextOccurrences(distribution, new Date('2026-11-01'), 1, zone)[0]
    const seriesUrl = new URL(
      googleCalendarUrl(
        distribution,
        { ...series, startsAt: series.startsAt.toISOString(), endsAt: null },
        { origin: ORIGIN, timeZone: zone },
      ),
    )
    expect(seriesUrl.searchParams.get('dates')).toBe('20261128/20261129')
    expect(seriesUrl.searchParams.get('recur')).toBe('RRULE:FREQ=MONTHLY;BYDAY=SA;BYSETPOS=-1;UNTIL=20270130')
  })
})
