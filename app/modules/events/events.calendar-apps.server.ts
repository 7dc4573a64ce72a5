import { getVtimezoneComponent } from '@touch4it/ical-timezones'
import ical, { escape, ICalEventRepeatingFreq, ICalWeekday, type ICalRepeatingOptions } from 'ical-generator'
import { dateInZone, instantIn, wallClockIn } from '~/platform/dates'
import type { EventRecord } from './events.queries.server'
import { lastStartOf, repeatRuleOf, rruleText } from './events.recurrence.server'
import { eventTypeLabel } from './events.schema'

/**
 * iCalendar (RFC 5545) files: the feed of all events that phones subscribe to, and one event's
 * file for "Add to calendar". ical-generator writes the lines (CRLF, escaping, folding at 75
 * octets); times carry the site's time zone with its VTIMEZONE, so a series keeps its local
 * time across daylight-saving changes, and skipped dates become EXDATEs.
 */

export interface CalendarFileOptions {
  /** The calendar's name in the subscriber's app. */
  name: string
  /** The site's origin, for event links. */
  origin: string
  timeZone: string
}

function repeatingOf(event: EventRecord, timeZone: string, zone: string | null): ICalRepeatingOptions | undefined {
  const rule = repeatRuleOf(event, timeZone)
  if (!rule) return undefined
  const time = wallClockIn(event.startsAt, timeZone).time
  const exclude = event.skippedDates.map((date) => {
    const instant = instantIn(date, time, timeZone)
    return zone ? dateInZone(instant, zone) : instant
  })
  return {
    freq: ICalEventRepeatingFreq[rule.freq],
    byDay: rule.byDay?.map((day) => ICalWeekday[day]),
    bySetPos: rule.bySetPos,
    byMonthDay: rule.byMonthDay,
    count: rule.count,
    until: rule.until,
    exclude: exclude.length > 0 ? exclude : undefined,
  }
}

export function buildCalendarFile(events: EventRecord[], { name, origin, timeZone }: CalendarFileOptions): string {
  // A zone without a VTIMEZONE definition would leave TZID pointing at nothing: such sites get UTC times.
  const zone = getVtimezoneComponent(timeZone) ? timeZone : null
  const calendar = ical({
    prodId: { company: 'charity-site', product: 'calendar', language: 'EN' },
    // ical-generator writes the name as given: escape it like any other text.
    name: escape(name, false),
  })
  if (zone) calendar.timezone({ name: null, generator: getVtimezoneComponent })
  for (const event of events) {
    const at = (iso: string) => (zone ? dateInZone(iso, zone) : new Date(iso))
    calendar.createEvent({
      // A UUID alone (RFC 7986, 5.3): the same whatever address the feed is read at.
      id: event.id,
      start: at(event.startsAt),
      end: event.endsAt ? at(event.endsAt) : null,
      timezone: zone,
      stamp: new Date(event.updatedAt),
      created: new Date(event.createdAt),
      lastModified: new Date(event.updatedAt),
      summary: event.title,
      description: event.description,
      location: event.location,
      url: `${origin}/calendar/${encodeURIComponent(event.slug)}`,
      categories: [{ name: eventTypeLabel(event.type) }],
      repeating: repeatingOf(event, timeZone, zone),
    })
  }
  return calendar.toString()
}

function googleTime(iso: string, timeZone: string): string {
  const { date, time } = wallClockIn(iso, timeZone)
  return `${date.replaceAll('-', '')}T${time.replace(':', '')}00`
}

/**
 * A link that opens Google Calendar's "new event" page filled in with this occurrence, and
 * for a series its rule from then on (Google cannot skip dates, so skipped dates are not in it).
 */
export function googleCalendarUrl(
  event: EventRecord,
  occurrence: { startsAt: string; endsAt: string | null },
  { origin, timeZone }: Pick<CalendarFileOptions, 'origin' | 'timeZone'>,
): string {
  const rule = repeatRuleOf(event, timeZone)
  if (rule?.count) {
    // Counted from the shown occurrence the count would run too far: end on the last date instead.
    rule.until = lastStartOf(event, timeZone) ?? undefined
    delete rule.count
  }
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${googleTime(occurrence.startsAt, timeZone)}/${googleTime(occurrence.endsAt ?? occurrence.startsAt, timeZone)}`,
    ctz: timeZone,
    details: `${event.description}\n\n${origin}/calendar/${encodeURIComponent(event.slug)}`,
    location: event.location,
  })
  if (rule) params.set('recur', `RRULE:${rruleText(rule)}`)
  return `https://calendar.google.com/calendar/render?${params}`
}

/** A map search for the location (opens the map app on phones). */
export function mapSearchUrl(location: string): string {
  return `https://www.google.com/maps/search/?${new URLSearchParams({ api: '1', query: location })}`
}
