import type { EventRepeatValue, EventTypeValue } from '~/platform/db-schema'
import { db } from '~/platform/db.server'
import { addDays, instantIn, wallClockIn, type PlainDate } from '~/platform/dates'
import { nextOccurrences, occurrenceOn, occurrencesBetween, type EventTiming, type Occurrence } from './events.recurrence.server'
import { describeRepeat } from './events.wording.server'
import type { EventFormValues } from './events.schema'

/** One occurrence of an event, as the calendar, its sidebar and the home page show it. */
export interface CalendarOccurrence {
  eventId: string
  slug: string
  title: string
  type: EventTypeValue
  location: string
  /** The day in the site's time zone. */
  date: PlainDate
  /** ISO-8601 UTC */
  startsAt: string
  endsAt: string | null
  /** A date and no time: startsAt is the start of the day, endsAt (if any) the start of the last day. */
  allDay: boolean
  repeats: boolean
}

export interface EventRecord extends EventTiming {
  id: string
  slug: string
  title: string
  description: string
  location: string
  type: EventTypeValue
  createdAt: string
  updatedAt: string
}

const EVENT_COLUMNS = [
  'id',
  'slug',
  'title',
  'description',
  'location',
  'type',
  'allDay',
  'startsAt',
  'endsAt',
  'repeat',
  'repeatUntil',
  'repeatCount',
  'createdAt',
  'updatedAt',
] as const

/** Loads the skipped dates of these events and attaches them (and reads the stored all-day flag). */
async function withSkippedDates<T extends { id: string; allDay: number }>(
  rows: T[],
): Promise<(Omit<T, 'allDay'> & { allDay: boolean; skippedDates: PlainDate[] })[]> {
  if (rows.length === 0) return []
  const skipped = await db
    .selectFrom('eventSkippedDates')
    .select(['eventId', 'date'])
    .where(
      'eventId',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('date')
    .execute()
  const byEvent = new Map<string, PlainDate[]>()
  for (const { eventId, date } of skipped) byEvent.set(eventId, [...(byEvent.get(eventId) ?? []), date])
  return rows.map((row) => ({ ...row, allDay: row.allDay === 1, skippedDates: byEvent.get(row.id) ?? [] }))
}

// The last start is computed in the time zone the event was saved in; a day's margin covers a later change of zone.
const MARGIN_MS = 36 * 3_600_000

/** The events that may have an occurrence starting in [from, to): a small set for a charity's calendar. */
async function eventsThatMayOccurBetween(from: Date, to: Date | null): Promise<EventRecord[]> {
  const rows = await db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where((eb) =>
      eb.or([eb('lastStartsAt', 'is', null), eb('lastStartsAt', '>=', new Date(from.getTime() - MARGIN_MS).toISOString())]),
    )
    .$if(to !== null, (qb) => qb.where('startsAt', '<', new Date(to!.getTime() + MARGIN_MS).toISOString()))
    .orderBy('startsAt')
    .orderBy('id')
    .execute()
  return withSkippedDates(rows)
}

function toCalendarOccurrence(event: EventRecord, occurrence: Occurrence): CalendarOccurrence {
  return {
    eventId: event.id,
    slug: event.slug,
    title: event.title,
    type: event.type,
    location: event.location,
    date: occurrence.date,
    startsAt: occurrence.startsAt.toISOString(),
    endsAt: occurrence.endsAt?.toISOString() ?? null,
    allDay: occurrence.allDay,
    repeats: event.repeat !== 'none',
  }
}

/** The first occurrence that is not skipped (the start itself if every one is). */
function firstOccurrence(event: EventRecord, timeZone: string): Occurrence {
  return (
    nextOccurrences(event, new Date(event.startsAt), 1, timeZone)[0] ?? {
      date: wallClockIn(event.startsAt, timeZone).date,
      startsAt: new Date(event.startsAt),
      endsAt: event.endsAt ? new Date(event.endsAt) : null,
      allDay: event.allDay,
    }
  )
}

function byStart(a: CalendarOccurrence, b: CalendarOccurrence): number {
  return a.startsAt.localeCompare(b.startsAt) || a.title.localeCompare(b.title)
}

/** Every occurrence that starts on the days from `first` to `last` (site time zone), soonest first. */
export async function listOccurrencesOnDays(first: PlainDate, last: PlainDate, timeZone: string): Promise<CalendarOccurrence[]> {
  const from = instantIn(first, '00:00', timeZone)
  const to = instantIn(addDays(last, 1), '00:00', timeZone)
  const events = await eventsThatMayOccurBetween(from, to)
  return events
    .flatMap((event) => occurrencesBetween(event, from, to, timeZone).map((o) => toCalendarOccurrence(event, o)))
    .sort(byStart)
}

/** The next `limit` occurrences that start at `from` or later, soonest first (the home page strip, the calendar sidebar). */
export async function listUpcomingOccurrences({
  from = new Date(),
  limit,
  timeZone,
}: {
  from?: Date
  limit: number
  timeZone: string
}): Promise<CalendarOccurrence[]> {
  const events = await eventsThatMayOccurBetween(from, null)
  return events
    .flatMap((event) => nextOccurrences(event, from, limit, timeZone).map((o) => toCalendarOccurrence(event, o)))
    .sort(byStart)
    .slice(0, limit)
}

/** How many events (a series counts once) still have an occurrence to come. */
export async function countUpcomingEvents({ from = new Date(), timeZone }: { from?: Date; timeZone: string }): Promise<number> {
  const events = await eventsThatMayOccurBetween(from, null)
  return events.filter((event) => nextOccurrences(event, from, 1, timeZone).length > 0).length
}

export interface EventDetail extends EventRecord {
  /** The occurrence the page is about. */
  occurrence: CalendarOccurrence
  /** 'Every month on the last Saturday'; null for a one-off event. */
  repeatText: string | null
  /** For a series: the occurrences after the one shown. */
  laterOccurrences: CalendarOccurrence[]
}

/**
 * An event by its address. The occurrence shown is the one on `date` when the event has one
 * that day; otherwise the next one to come, or for an event that is over, its first.
 */
export async function getEventBySlug(
  slug: string,
  { date, timeZone, now = new Date() }: { date: PlainDate | null; timeZone: string; now?: Date },
): Promise<EventDetail | null> {
  const row = await db.selectFrom('events').select(EVENT_COLUMNS).where('slug', '=', slug).executeTakeFirst()
  if (!row) return null
  const [event] = await withSkippedDates([row])
  const occurrence =
    (date ? occurrenceOn(event, date, timeZone) : null) ??
    nextOccurrences(event, now, 1, timeZone)[0] ??
    firstOccurrence(event, timeZone)
  // An all-day occurrence lasts its whole day: the later ones start on the next day.
  const after = event.allDay
    ? instantIn(addDays(occurrence.date, 1), '00:00', timeZone)
    : new Date(occurrence.startsAt.getTime() + 1)
  const later = event.repeat === 'none' ? [] : nextOccurrences(event, after, 4, timeZone)
  return {
    ...event,
    occurrence: toCalendarOccurrence(event, occurrence),
    repeatText: describeRepeat(event, timeZone),
    laterOccurrences: later.map((o) => toCalendarOccurrence(event, o)),
  }
}

export interface AdminEventRow {
  id: string
  slug: string
  title: string
  type: EventTypeValue
  location: string
  repeat: EventRepeatValue
  repeatText: string | null
  /** The next occurrence, or for an event that is over, its first. */
  shown: CalendarOccurrence
  upcoming: boolean
  isSample: boolean
}

/** Every event for the admin list: those to come first (soonest first), then those that are over (latest first). */
export async function listEventsForAdmin({
  now = new Date(),
  timeZone,
}: {
  now?: Date
  timeZone: string
}): Promise<AdminEventRow[]> {
  const rows = await withSkippedDates(
    await db
      .selectFrom('events')
      .select([...EVENT_COLUMNS, 'isSample'])
      .execute(),
  )
  const listed = rows.map((event): AdminEventRow => {
    const next = nextOccurrences(event, now, 1, timeZone)[0]
    const shown = next ?? firstOccurrence(event, timeZone)
    return {
      id: event.id,
      slug: event.slug,
      title: event.title,
      type: event.type,
      location: event.location,
      repeat: event.repeat,
      repeatText: describeRepeat(event, timeZone),
      shown: toCalendarOccurrence(event, shown),
      upcoming: next !== undefined,
      isSample: event.isSample === 1,
    }
  })
  const upcoming = listed.filter((e) => e.upcoming).sort((a, b) => byStart(a.shown, b.shown))
  const past = listed.filter((e) => !e.upcoming).sort((a, b) => byStart(b.shown, a.shown))
  return [...upcoming, ...past]
}

/** The event as the edit form shows it: local dates and times in the site's time zone. */
export async function getEventForEdit(
  id: string,
  timeZone: string,
): Promise<{ id: string; slug: string; title: string; values: EventFormValues } | null> {
  const row = await db.selectFrom('events').select(EVENT_COLUMNS).where('id', '=', id).executeTakeFirst()
  if (!row) return null
  const [event] = await withSkippedDates([row])
  const start = wallClockIn(event.startsAt, timeZone)
  const end = event.endsAt ? wallClockIn(event.endsAt, timeZone) : null
  return {
    id: event.id,
    slug: event.slug,
    title: event.title,
    values: {
      title: event.title,
      description: event.description,
      startDate: start.date,
      startTime: event.allDay ? undefined : start.time,
      endDate: end && end.date !== start.date ? end.date : undefined,
      endTime: event.allDay ? undefined : end?.time,
      location: event.location,
      type: event.type,
      repeat: event.repeat,
      repeatEnds: event.repeatCount ? 'after-count' : event.repeatUntil ? 'on-date' : 'never',
      repeatUntil: event.repeatUntil ?? undefined,
      repeatCount: event.repeatCount ?? undefined,
      skippedDates: event.skippedDates,
    },
  }
}

/** How many demo events are still there (the dashboard reminds administrators of them). */
export async function countSampleEvents(): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('isSample', '=', 1)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Every event with its rule and skipped dates, for the iCalendar feed (soonest first). */
export async function listEventsForFeed(): Promise<EventRecord[]> {
  return withSkippedDates(await db.selectFrom('events').select(EVENT_COLUMNS).orderBy('startsAt').orderBy('id').execute())
}

/** One event for its own .ics file. */
export async function getEventForCalendarFile(slug: string): Promise<EventRecord | null> {
  const row = await db.selectFrom('events').select(EVENT_COLUMNS).where('slug', '=', slug).executeTakeFirst()
  return row ? (await withSkippedDates([row]))[0] : null
}

/** Address and last change of every event, for sitemap.xml. */
export async function listEventsForSitemap(): Promise<{ slug: string; updatedAt: string }[]> {
  return db.selectFrom('events').select(['slug', 'updatedAt']).orderBy('startsAt', 'desc').limit(10_000).execute()
}
