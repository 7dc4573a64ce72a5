import {
  addMonths,
  formatMonth,
  formatPlainDate,
  monthGridWeeks,
  monthOf,
  type PlainDate,
  type PlainMonth,
} from '~/platform/dates'
import { countUpcomingEvents, listOccurrencesOnDays, listUpcomingOccurrences } from './events.queries.server'
import { type CalendarOccurrence } from './events.records.server'
import { CALENDAR_SIDEBAR_LIMIT, eventTypeLabel } from './events.schema'
import { formatOccurrenceStart, formatOccurrenceWhen, nextDatesLabel, upcomingEventsLabel } from './events.wording.server'

/** An occurrence as the month grid, its agenda and the sidebar show it. */
function chipOf(o: CalendarOccurrence, timeZone: string) {
  return {
    key: `${o.eventId}-${o.date}`,
    href: `/calendar/${encodeURIComponent(o.slug)}?date=${o.date}`,
    title: o.title,
    type: o.type,
    typeLabel: eventTypeLabel(o.type),
    time: formatOccurrenceStart(o, timeZone),
    location: o.location,
  }
}

/** The calendar page's month: its grid of weeks with each day's events, and the sidebar's upcoming dates. */
export async function getCalendarMonth(month: PlainMonth, { today, timeZone }: { today: PlainDate; timeZone: string }) {
  const weeks = monthGridWeeks(month)
  const [occurrences, upcoming, upcomingCount] = await Promise.all([
    listOccurrencesOnDays(weeks[0][0], weeks.at(-1)![6], timeZone),
    listUpcomingOccurrences({ limit: CALENDAR_SIDEBAR_LIMIT, timeZone }),
    countUpcomingEvents({ timeZone }),
  ])
  const onDay = (date: PlainDate) => occurrences.filter((o) => o.date === date).map((o) => chipOf(o, timeZone))
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
      ...chipOf(o, timeZone),
      when: formatOccurrenceWhen(o, timeZone),
      monthShort: formatPlainDate(o.date, 'monthShort'),
      day: Number(o.date.slice(8, 10)),
    })),
    upcomingCountLabel: upcomingEventsLabel(upcomingCount),
    upcomingDatesLabel: nextDatesLabel(upcoming.length),
  }
}
