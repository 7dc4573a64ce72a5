import type { Selectable } from 'kysely'
import type { EventRepeatValue, EventTable, EventTypeValue } from '~/platform/db-schema'
import { ADMIN_LIST_PAGE_SIZE, listPageOffset } from '~/platform/admin-list-page.server'
import { db } from '~/platform/db.server'
import { wallClockIn } from '~/platform/dates'
import {
  EVENT_COLUMNS,
  byStart,
  firstOccurrence,
  mayOccurFrom,
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

const ADMIN_EVENT_COLUMNS = [...EVENT_COLUMNS, 'isSample', 'publishAt'] as const
type StoredEvent = Awaited<
  ReturnType<typeof withSkippedDates<Selectable<Pick<EventTable, (typeof ADMIN_EVENT_COLUMNS)[number]>>>>
>[number]

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** A row with the start of its event (a series' first date), which orders those that are over. */
type ListedEvent = AdminEventRow & { began: string }

function toAdminRow(event: StoredEvent, now: Date, timeZone: string): ListedEvent {
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
    began: event.startsAt,
  }
}

/** The events in `state` that are over for sure, whatever the time zone: a site gathers them for years. */
function longOver(state: PublicationState | null, now: Date) {
  return db
    .selectFrom('events')
    .where(isInState('events', state, now))
    .where((eb) => eb.not(mayOccurFrom(now)(eb)))
}

/**
 * `count` rows from `from` on of all the events that are over, latest first by when they began:
 * the long-over ones paged by the database, with the recently over (`recent`, in that order)
 * placed among them. Each of those stands at its rank plus the long-over events before it.
 */
async function overEvents(
  { state, now, timeZone }: { state: PublicationState | null; now: Date; timeZone: string },
  recent: ListedEvent[],
  from: number,
  count: number,
): Promise<ListedEvent[]> {
  // One query counts, for each of them, the long-over events before it.
  const before: Record<string, number | string | null> =
    recent.length === 0
      ? {}
      : await longOver(state, now)
          .select((eb) =>
            recent.map((event, rank) =>
              eb.fn
                .sum<number | null>(
                  eb
                    .case()
                    .when(
                      eb.or([
                        eb('startsAt', '>', event.began),
                        eb.and([eb('startsAt', '=', event.began), eb('id', '<', event.id)]),
                      ]),
                    )
                    .then(1)
                    .else(0)
                    .end(),
                )
                .as(`before${rank}`),
            ),
          )
          .executeTakeFirstOrThrow()
  const placed = recent.map((event, rank) => ({ event, at: rank + Number(before[`before${rank}`] ?? 0) }))
  const onPage = placed.filter(({ at }) => at >= from && at < from + count)
  const placedBefore = placed.filter(({ at }) => at < from).length
  const paged =
    count === onPage.length
      ? []
      : await longOver(state, now)
          .select(ADMIN_EVENT_COLUMNS)
          .orderBy('startsAt', 'desc')
          .orderBy('id')
          .offset(from - placedBefore)
          .limit(count - onPage.length)
          .execute()
          .then(withSkippedDates)
  const rows: ListedEvent[] = []
  for (let at = from, next = 0; at < from + count; at++) {
    const placement = onPage.find((p) => p.at === at)
    if (placement) rows.push(placement.event)
    else if (next < paged.length) rows.push(toAdminRow(paged[next++], now, timeZone))
  }
  return rows
}

/**
 * One page of the admin list: the events to come first, soonest first (by their next date, which
 * only the recurrence rules know), then those that are over, latest first by when they began (a
 * series by its first date, even when that date was skipped and the row shows the next).
 * Only the events that may still occur are read whole and worked out; those long over are counted
 * and paged by the database.
 */
export async function listEventsForAdmin({
  now = new Date(),
  timeZone,
  state = null,
  page = 1,
}: {
  now?: Date
  timeZone: string
  /** Only the events in this state (out of the trash, always). */
  state?: PublicationState | null
  page?: number
}): Promise<{ events: AdminEventRow[]; total: number }> {
  const [live, { over }] = await Promise.all([
    db
      .selectFrom('events')
      .select(ADMIN_EVENT_COLUMNS)
      .where(isInState('events', state, now))
      .where(mayOccurFrom(now))
      .execute()
      .then(withSkippedDates),
    longOver(state, now)
      .select((eb) => eb.fn.countAll<number>().as('over'))
      .executeTakeFirstOrThrow(),
  ])
  const rows = live.map((event) => toAdminRow(event, now, timeZone))
  // The id settles ties, so that the list is cut into the same pages on every request.
  const upcoming = rows.filter((e) => e.upcoming).sort((a, b) => byStart(a.shown, b.shown) || a.id.localeCompare(b.id))
  // Over since the last two days or so, or with every date left skipped. Compared as the database
  // compares them (not by locale), to agree with its order of the long-over ones.
  const recentlyOver = rows.filter((e) => !e.upcoming).sort((a, b) => compare(b.began, a.began) || compare(a.id, b.id))

  const from = listPageOffset(page)
  const shownUpcoming = upcoming.slice(from, from + ADMIN_LIST_PAGE_SIZE)
  const shownOver = await overEvents(
    { state, now, timeZone },
    recentlyOver,
    Math.max(0, from - upcoming.length),
    ADMIN_LIST_PAGE_SIZE - shownUpcoming.length,
  )
  return {
    events: [...shownUpcoming, ...shownOver].map(({ began: _, ...row }) => row),
    total: upcoming.length + recentlyOver.length + Number(over),
  }
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
