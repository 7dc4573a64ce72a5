import { lastChangeOf } from '~/platform/publication'
import { markdownToPlainText, renderMarkdown } from '~/platform/markdown'
import { db } from '~/platform/db.server'
import { addDays, instantIn, type PlainDate } from '~/platform/dates'
import { nextOccurrences, occurrenceOn, occurrencesOnDaysBetween, type Occurrence } from './events.recurrence.server'
import { describeRepeat } from './events.wording.server'
import { readSignupForm, type SignupForm } from './signups.queries.server'
import { isPublicNow, isVisibleTo, type Audience } from '~/platform/publication.server'
import {
  EVENT_COLUMNS,
  byStart,
  firstOccurrence,
  mayOccurFrom,
  toCalendarOccurrence,
  withSkippedDates,
  type CalendarOccurrence,
  type EventRecord,
} from './events.records.server'

function publicEvents(audience: Audience = 'public') {
  return db.selectFrom('events').where(isVisibleTo('events', audience))
}

// Times are worked out in the time zone the event was saved in; a day's margin covers a later change of zone.
const MARGIN_MS = 36 * 3_600_000

/**
 * A repeating all-day event lasts less than its period, a month at most: an occurrence that began
 * before a range and lasts into it started at most this long before it.
 */
const LONGEST_REPEATED_SPAN_MS = 31 * 86_400_000

/**
 * The events that may have an occurrence starting in [from, to), or with `lasting`, one on its days
 * (an all-day event that began before): a small set for a charity's calendar.
 */
async function eventsThatMayOccurBetween(from: Date, to: Date | null, { lasting = false } = {}): Promise<EventRecord[]> {
  const rows = await db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where(isPublicNow('events'))
    .where((eb) =>
      lasting
        ? eb.or([
            mayOccurFrom(new Date(from.getTime() - LONGEST_REPEATED_SPAN_MS))(eb),
            eb('endsAt', '>=', new Date(from.getTime() - MARGIN_MS).toISOString()),
          ])
        : mayOccurFrom(from)(eb),
    )
    .$if(to !== null, (qb) => qb.where('startsAt', '<', new Date(to!.getTime() + MARGIN_MS).toISOString()))
    .orderBy('startsAt')
    .orderBy('id')
    .execute()
  return withSkippedDates(rows)
}

/**
 * Every occurrence on the days from `first` to `last` (site time zone), soonest first: those that
 * start there, and all-day ones that began before and last into them.
 */
export async function listOccurrencesOnDays(first: PlainDate, last: PlainDate, timeZone: string): Promise<CalendarOccurrence[]> {
  const from = instantIn(first, '00:00', timeZone)
  const to = instantIn(addDays(last, 1), '00:00', timeZone)
  const events = await eventsThatMayOccurBetween(from, to, { lasting: true })
  return events
    .flatMap((event) => occurrencesOnDaysBetween(event, from, to, timeZone).map((o) => toCalendarOccurrence(event, o)))
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
  /** The description (Markdown) as HTML, and as plain text for social tags. */
  descriptionHtml: string
  descriptionText: string
  /** The occurrence the page is about. */
  occurrence: CalendarOccurrence
  /** 'Every month on the last Saturday'; null for a one-off event. */
  repeatText: string | null
  /** For a series: the occurrences after the one shown. */
  laterOccurrences: CalendarOccurrence[]
  /** How visitors sign up for it; null when it takes no sign-ups. */
  signupForm: SignupForm | null
}

/** What an event's page shows of the event itself, whichever of its dates it is about. */
type EventWithTexts = EventRecord & Pick<EventDetail, 'descriptionHtml' | 'descriptionText' | 'repeatText' | 'signupForm'>

async function eventWithTexts(slug: string, timeZone: string, audience: Audience): Promise<EventWithTexts | null> {
  const row = await publicEvents(audience).select(EVENT_COLUMNS).where('slug', '=', slug).executeTakeFirst()
  if (!row) return null
  const [[event], signupForm] = await Promise.all([withSkippedDates([row]), readSignupForm(row.id)])
  return {
    ...event,
    signupForm,
    descriptionHtml: renderMarkdown(event.description),
    descriptionText: markdownToPlainText(event.description),
    repeatText: describeRepeat(event, timeZone),
  }
}

/**
 * An event by its address. The occurrence shown is the one on `date` when the event has one
 * that day; otherwise the next one to come, or for an event that is over, its first.
 */
export async function getEventBySlug(
  slug: string,
  {
    date,
    timeZone,
    now = new Date(),
    audience = 'public',
  }: { date: PlainDate | null; timeZone: string; now?: Date; audience?: Audience },
): Promise<EventDetail | null> {
  const event = await eventWithTexts(slug, timeZone, audience)
  if (!event) return null
  const onDay = (day: PlainDate) => {
    const occurrence = occurrenceOn(event, day, timeZone)
    return occurrence ? datesFrom(event, occurrence, timeZone) : null
  }
  const onDate = date && onDay(date)
  const shown =
    onDate || datesFrom(event, nextOccurrences(event, now, 1, timeZone)[0] ?? firstOccurrence(event, timeZone), timeZone)
  return { ...event, ...shown }
}

/** The occurrence shown and the next ones after it. */
function datesFrom(event: EventWithTexts, occurrence: Occurrence, timeZone: string) {
  // An all-day occurrence lasts its whole day: the later ones start on the next day.
  const after = event.allDay
    ? instantIn(addDays(occurrence.date, 1), '00:00', timeZone)
    : new Date(occurrence.startsAt.getTime() + 1)
  const later = event.repeat === 'none' ? [] : nextOccurrences(event, after, 4, timeZone)
  return {
    occurrence: toCalendarOccurrence(event, occurrence),
    laterOccurrences: later.map((o) => toCalendarOccurrence(event, o)),
  }
}

/** Every event with its rule and skipped dates, for the iCalendar feed (soonest first). */
export async function listEventsForFeed(): Promise<EventRecord[]> {
  return withSkippedDates(await publicEvents().select(EVENT_COLUMNS).orderBy('startsAt').orderBy('id').execute())
}

/** One event for its own .ics file. */
export async function getEventForCalendarFile(slug: string): Promise<EventRecord | null> {
  const row = await publicEvents().select(EVENT_COLUMNS).where('slug', '=', slug).executeTakeFirst()
  return row ? (await withSkippedDates([row]))[0] : null
}

/** Address and last change of every event, for sitemap.xml. */
export async function listEventsForSitemap(): Promise<{ slug: string; updatedAt: string }[]> {
  const rows = await publicEvents().select(['slug', 'updatedAt', 'publishAt']).orderBy('startsAt', 'desc').limit(10_000).execute()
  return rows.map((row) => ({ slug: row.slug, updatedAt: lastChangeOf(row) }))
}
