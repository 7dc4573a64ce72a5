import type { EventRepeatValue, EventTypeValue } from '~/platform/db-schema'
import { db } from '~/platform/db.server'
import { wallClockIn } from '~/platform/dates'
import {
  EVENT_COLUMNS,
  byStart,
  firstOccurrence,
  toCalendarOccurrence,
  withSkippedDates,
  type CalendarOccurrence,
} from './events.records.server'
import { nextOccurrences } from './events.recurrence.server'
import type { EventFormValues } from './events.schema'
import { describeRepeat } from './events.wording.server'
import { getSignupFormValues } from './signups.queries.server'
import { isInState } from '~/platform/publication.server'
import type { PublicationState } from '~/platform/publication'

/** What the admin's event pages read. */

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
  publishAt: string | null
}

/** Every event for the admin list: those to come first (soonest first), then those that are over (latest first). */
export async function listEventsForAdmin({
  now = new Date(),
  timeZone,
  state = null,
}: {
  now?: Date
  timeZone: string
  /** Only the events in this state (out of the trash, always). */
  state?: PublicationState | null
}): Promise<AdminEventRow[]> {
  const rows = await withSkippedDates(
    await db
      .selectFrom('events')
      .select([...EVENT_COLUMNS, 'isSample', 'publishAt'])
      .where(isInState('events', state, now))
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
      publishAt: event.publishAt,
    }
  })
  // The id settles ties, so that the list is cut into the same pages on every request.
  const upcoming = listed.filter((e) => e.upcoming).sort((a, b) => byStart(a.shown, b.shown) || a.id.localeCompare(b.id))
  const past = listed.filter((e) => !e.upcoming).sort((a, b) => byStart(b.shown, a.shown) || a.id.localeCompare(b.id))
  return [...upcoming, ...past]
}

/** The event as the edit form shows it: local dates and times in the site's time zone. */
export async function getEventForEdit(
  id: string,
  timeZone: string,
): Promise<{
  id: string
  slug: string
  title: string
  publishAt: string | null
  trashedAt: string | null
  values: EventFormValues
} | null> {
  const row = await db
    .selectFrom('events')
    .select([...EVENT_COLUMNS, 'publishAt', 'trashedAt'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const [event] = await withSkippedDates([row])
  const start = wallClockIn(event.startsAt, timeZone)
  const end = event.endsAt ? wallClockIn(event.endsAt, timeZone) : null
  return {
    id: event.id,
    slug: event.slug,
    title: event.title,
    publishAt: row.publishAt,
    trashedAt: row.trashedAt,
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
      ...(await getSignupFormValues(event.id)),
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
