import { formatDate, formatPlainDate, wallClockIn, type PlainDate } from '~/platform/dates'
import type { EventTiming } from './events.recurrence.server'

/** How an event's dates and times are said on its page, in the admin list and in previews. */

const ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth']

function ordinalDay(day: number): string {
  const suffix =
    day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'
  return `${day}${suffix}`
}

/** How a series repeats, as people say it ('Every month on the last Saturday, until March 27, 2027'); null for a one-off. */
export function describeRepeat(timing: EventTiming, timeZone: string): string | null {
  if (timing.repeat === 'none') return null
  const first = wallClockIn(timing.startsAt, timeZone).date
  const weekday = formatPlainDate(first, 'weekday')
  const dayOfMonth = Number(first.slice(8, 10))
  const rule = {
    weekly: `Every week on ${weekday}`,
    'monthly-date': `Every month on the ${ordinalDay(dayOfMonth)}`,
    'monthly-weekday': `Every month on the ${ORDINALS[Math.ceil(dayOfMonth / 7)]} ${weekday}`,
    'monthly-last-weekday': `Every month on the last ${weekday}`,
  }[timing.repeat]
  if (timing.repeatCount) return `${rule}, ${timing.repeatCount} ${timing.repeatCount === 1 ? 'time' : 'times'}`
  if (timing.repeatUntil) return `${rule}, until ${formatPlainDate(timing.repeatUntil, 'date')}`
  return rule
}

/**
 * What a list of upcoming dates shows ('The next 5 dates'): beside the count of events, where a
 * repeating event counts once, the lists say that they count dates. Null for an empty list.
 */
export function nextDatesLabel(count: number): string | null {
  if (count === 0) return null
  return count === 1 ? 'The next date' : `The next ${count} dates`
}

/** The calendar's count of events to come: '4 upcoming events (a repeating event counts once)'. */
export function upcomingEventsLabel(count: number): string {
  if (count === 0) return 'No upcoming events scheduled'
  return `${count} upcoming ${count === 1 ? 'event' : 'events'} (a repeating event counts once)`
}

interface ShownOccurrence {
  date: PlainDate
  startsAt: string | Date
  endsAt: string | Date | null
  allDay: boolean
}

/** When it starts on its day, for the month grid and its agenda: '9:00 AM', or 'All day'. */
export function formatOccurrenceStart(occurrence: ShownOccurrence, timeZone: string): string {
  return occurrence.allDay ? 'All day' : formatDate(occurrence.startsAt, timeZone, 'time')
}

/** Its day and start, for lists of dates: 'Sat, Nov 28, 9:00 AM', or 'Sat, Nov 28, all day'. */
export function formatOccurrenceWhen(occurrence: ShownOccurrence, timeZone: string): string {
  return occurrence.allDay
    ? `${formatPlainDate(occurrence.date, 'shortWeekdayDate')}, all day`
    : formatDate(occurrence.startsAt, timeZone, 'shortWeekdayDateTime')
}

/**
 * '9:00 AM – 12:00 PM', or '9:00 AM' without an end; an end on another day names that day.
 * An all-day event: 'All day', or 'All day, until Mon, Nov 30' when it lasts several days.
 */
export function formatOccurrenceTimes(occurrence: ShownOccurrence, timeZone: string): string {
  if (occurrence.allDay) {
    const lastDay = occurrence.endsAt ? wallClockIn(occurrence.endsAt, timeZone).date : occurrence.date
    return lastDay > occurrence.date ? `All day, until ${formatPlainDate(lastDay, 'shortWeekdayDate')}` : 'All day'
  }
  const start = formatDate(occurrence.startsAt, timeZone, 'time')
  if (!occurrence.endsAt) return start
  const endDay = wallClockIn(occurrence.endsAt, timeZone).date
  const end =
    endDay === occurrence.date
      ? formatDate(occurrence.endsAt, timeZone, 'time')
      : `${formatPlainDate(endDay, 'shortWeekdayDate')}, ${formatDate(occurrence.endsAt, timeZone, 'time')}`
  return `${start} – ${end}`
}
