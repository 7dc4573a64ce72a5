import { markdownToPlainText } from '~/platform/markdown'
import { getVtimezoneComponent } from '@touch4it/ical-timezones'
import ical, { escape, ICalEventRepeatingFreq, ICalWeekday, type ICalRepeatingOptions } from 'ical-generator'
import { addDays, dateInZone, instantIn, wallClockIn, type PlainDate } from '~/platform/dates'
import type { EventRecord } from './events.records.server'
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

/** A day as ical-generator writes it with VALUE=DATE when no time zone is given: its UTC date. */
function dayValue(date: PlainDate): Date {
  return new Date(`${date}T00:00:00Z`)
}

/**
 * An all-day event's days (DTSTART;VALUE=DATE, and DTEND the day after its last day, as RFC 5545
 * counts it), and its rule written out, so that UNTIL and EXDATE are dates like the start.
 */
function allDayFields(event: EventRecord, timeZone: string) {
  const first = wallClockIn(event.startsAt, timeZone).date
  const last = event.endsAt ? wallClockIn(event.endsAt, timeZone).date : first
  const rule = repeatRuleOf(event, timeZone)
  const lines = rule ? [`RRULE:${rruleText(rule, timeZone)}`] : []
  if (rule && event.skippedDates.length > 0) {
    lines.push(`EXDATE;VALUE=DATE:${event.skippedDates.map((date) => date.replaceAll('-', '')).join(',')}`)
  }
  return {
    allDay: true,
    start: dayValue(first),
    end: dayValue(addDays(last, 1)),
    timezone: null,
    repeating: lines.length > 0 ? lines.join('\n') : undefined,
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
      repeating: repeatingOf(event, timeZone, zone),
      ...(event.allDay ? allDayFields(event, timeZone) : {}),
      stamp: new Date(event.updatedAt),
      created: new Date(event.createdAt),
      lastModified: new Date(event.updatedAt),
      summary: event.title,
      description: markdownToPlainText(event.description, { linksFrom: origin }),
      location: event.location,
      url: `${origin}/calendar/${encodeURIComponent(event.slug)}`,
      categories: [{ name: eventTypeLabel(event.type) }],
    })
  }
  return calendar.toString()
}

function googleTime(iso: string, timeZone: string): string {
  const { date, time } = wallClockIn(iso, timeZone)
  return `${date.replaceAll('-', '')}T${time.replace(':', '')}00`
}

/** Google's dates: start/end in local time, or for an all-day event its first day/the day after its last. */
function googleDates(
  occurrence: { date: PlainDate; startsAt: string; endsAt: string | null; allDay: boolean },
  timeZone: string,
) {
  if (occurrence.allDay) {
    const last = occurrence.endsAt ? wallClockIn(occurrence.endsAt, timeZone).date : occurrence.date
    return `${occurrence.date.replaceAll('-', '')}/${addDays(last, 1).replaceAll('-', '')}`
  }
  return `${googleTime(occurrence.startsAt, timeZone)}/${googleTime(occurrence.endsAt ?? occurrence.startsAt, timeZone)}`
}

/**
 * A link that opens Google Calendar's "new event" page filled in with this occurrence, and
 * for a series its rule from then on (Google cannot skip dates, so skipped dates are not in it).
 */
export function googleCalendarUrl(
  event: EventRecord,
  occurrence: { date: PlainDate; startsAt: string; endsAt: string | null; allDay: boolean },
  options: Pick<CalendarFileOptions, 'origin' | 'timeZone'>,
): string {
  const { origin, timeZone } = options
  const rule = repeatRuleOf(event, timeZone)
  if (rule?.count) {
    // Counted from the shown occurrence the count would run too far: end on the last date instead.
    rule.until = lastStartOf(event, timeZone) ?? undefined
    delete rule.count
  }
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: googleDates(occurrence, timeZone),
    ctz: timeZone,
    details: `${markdownToPlainText(event.description, { linksFrom: origin })}\n\n${origin}/calendar/${encodeURIComponent(event.slug)}`,
    location: event.location,
  })
  if (rule) params.set('recur', `RRULE:${rruleText(rule, event.allDay ? timeZone : undefined)}`)
  return `https://calendar.google.com/calendar/render?${params}`
}

/** A map search for the location (opens the map app on phones). */
export function mapSearchUrl(location: string): string {
  return `https://www.google.com/maps/search/?${new URLSearchParams({ api: '1', query: location })}`
}
