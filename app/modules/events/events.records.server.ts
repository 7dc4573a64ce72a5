import type { ExpressionBuilder } from 'kysely'
import type { Database, EventTypeValue } from '~/platform/db-schema'
import { db } from '~/platform/db.server'
import { wallClockIn, type PlainDate } from '~/platform/dates'
import { nextOccurrences, type EventTiming, type Occurrence } from './events.recurrence.server'

/** An event as stored, and its occurrences as pages show them: shared by the public and admin reads. */

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

export const EVENT_COLUMNS = [
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

// An all-day event is to come all through its last day (up to 25 hours after its start), and the
// last start is worked out in the time zone the event was saved in: a later change of zone moves
// it by up to 26 hours more.
const LAST_START_MARGIN_MS = 60 * 3_600_000

/**
 * The events that may still have an occurrence starting at or after `from`: those that never end,
 * and those whose last start is not well before it. All others are over, whatever the time zone.
 */
export function mayOccurFrom(from: Date) {
  const before = new Date(from.getTime() - LAST_START_MARGIN_MS).toISOString()
  return (eb: ExpressionBuilder<Database, 'events'>) =>
    eb.or([eb('events.lastStartsAt', 'is', null), eb('events.lastStartsAt', '>=', before)])
}

/** Loads the skipped dates of these events and attaches them (and reads the stored all-day flag). */
export async function withSkippedDates<T extends { id: string; allDay: number }>(
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

export function toCalendarOccurrence(event: EventRecord, occurrence: Occurrence): CalendarOccurrence {
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
export function firstOccurrence(event: EventRecord, timeZone: string): Occurrence {
  return (
    nextOccurrences(event, new Date(event.startsAt), 1, timeZone)[0] ?? {
      date: wallClockIn(event.startsAt, timeZone).date,
      startsAt: new Date(event.startsAt),
      endsAt: event.endsAt ? new Date(event.endsAt) : null,
      allDay: event.allDay,
    }
  )
}

export function byStart(a: CalendarOccurrence, b: CalendarOccurrence): number {
  return a.startsAt.localeCompare(b.startsAt) || a.title.localeCompare(b.title)
}
