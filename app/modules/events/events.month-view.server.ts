import {
  addMonths,
  formatMonth,
  formatPlainDate,
  monthGridWeeks,
  monthOf,
  type PlainDate,
  type PlainMonth,
  todayIn,
  wallClockIn,
} from '~/platform/dates'
import { countUpcomingEvents, listOccurrencesOnDays, listUpcomingOccurrences } from './events.queries.server'
import { type CalendarOccurrence } from './events.records.server'
import { CALENDAR_SIDEBAR_LIMIT } from './events.schema'
import { formatOccurrenceStart, formatOccurrenceWhen, nextDatesLabel, upcomingEventsLabel } from './events.wording.server'

/** An occurrence as the sidebar shows it: the data a page sends holds only what it shows. */
function linkOf(o: CalendarOccurrence) {
  return {
    key: `${o.eventId}-${o.date}`,
    href: `/calendar/${encodeURIComponent(o.slug)}?date=${o.date}`,
    title: o.title,
    location: o.location,
  }
}

/** An occurrence as the month grid and its agenda show it. */
function chipOf(o: CalendarOccurrence, timeZone: string) {
  return { ...linkOf(o), type: o.type, time: formatOccurrenceStart(o, timeZone) }
}

/** The last day an occurrence is on: an all-day one may last several (its end is the start of its last day). */
function lastDayOf(o: CalendarOccurrence, timeZone: string): PlainDate {
  return o.allDay && o.endsAt ? wallClockIn(o.endsAt, timeZone).date : o.date
}

/** The calendar page's month: its grid of weeks with each day's events, and the sidebar's upcoming dates. */
export async function getCalendarMonth(
  month: PlainMonth,
  { today, timeZone, now = new Date() }: { today: PlainDate; timeZone: string; now?: Date },
) {
  const weeks = monthGridWeeks(month)
  const [occurrences, upcoming, upcomingCount] = await Promise.all([
    listOccurrencesOnDays(weeks[0][0], weeks.at(-1)![6], timeZone),
    listUpcomingOccurrences({ from: now, limit: CALENDAR_SIDEBAR_LIMIT, timeZone }),
    countUpcomingEvents({ from: now, timeZone }),
  ])
  // Each occurrence's days and chip are worked out once, not once per day of the grid.
  const placed = occurrences.map((o) => ({ first: o.date, last: lastDayOf(o, timeZone), chip: chipOf(o, timeZone) }))
  const onDay = (date: PlainDate) => placed.filter((p) => p.first <= date && date <= p.last).map((p) => p.chip)
  return {
    month,
    monthLabel: formatMonth(month),
    previous: { month: addMonths(month, -1), label: formatMonth(addMonths(month, -1)) },
    next: { month: addMonths(month, 1), label: formatMonth(addMonths(month, 1)) },
    isCurrentMonth: month === monthOf(today),
    weeks: weeks.map((week) =>
      week.map((date) => ({
        date,
        day: Number(date.slice(8, 10)),
        label: formatPlainDate(date),
        inMonth: monthOf(date) === month,
        isToday: date === today,
        events: onDay(date),
      })),
    ),
    upcoming: upcoming.map((o) => ({
      ...linkOf(o),
      when: formatOccurrenceWhen(o, timeZone),
      monthShort: formatPlainDate(o.date, 'monthShort'),
      day: Number(o.date.slice(8, 10)),
    })),
    upcomingCountLabel: upcomingEventsLabel(upcomingCount),
    upcomingDatesLabel: nextDatesLabel(upcoming.length),
  }
}

export type CalendarMonth = Awaited<ReturnType<typeof getCalendarMonth>>

/** The calendar page's month for visitors; `month` must be a month the calendar accepts (`parsePlainMonth`). */
export function getPublicCalendarMonth(
  month: PlainMonth,
  { timeZone, now = new Date() }: { timeZone: string; now?: Date },
): Promise<CalendarMonth> {
  return getCalendarMonth(month, { today: todayIn(timeZone, now), timeZone, now })
}
