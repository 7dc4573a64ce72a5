import { TZDate } from '@date-fns/tz'

/**
 * The site's one date helper. Instants are stored as ISO-8601 UTC strings and shown in the
 * site's time zone (a setting); calendar days and months are plain strings ('2026-11-28',
 * '2026-11') with no time zone, so their arithmetic cannot drift by an hour. Formatting runs
 * on the server, so the browser shows the same text as the server rendered.
 */

/** A calendar day, 'YYYY-MM-DD'. */
export type PlainDate = string
/** A calendar month, 'YYYY-MM'. */
export type PlainMonth = string
/** A time of day, 'HH:MM' (24 hours). */
export type PlainTime = string

const STYLES = {
  /** 'March 5, 2026' */
  date: { dateStyle: 'long' },
  /** 'Mar 5, 2026, 4:07 PM' */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** 'Saturday, November 28, 2026' */
  weekdayDate: { dateStyle: 'full' },
  /** 'Sat, Nov 28' */
  shortWeekdayDate: { weekday: 'short', month: 'short', day: 'numeric' },
  /** 'Sat, Nov 28, 9:00 AM' */
  shortWeekdayDateTime: { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  /** 'Saturday' */
  weekday: { weekday: 'long' },
  /** '9:00 AM' */
  time: { hour: 'numeric', minute: '2-digit' },
  /** 'Nov' */
  monthShort: { month: 'short' },
  /** 'November 2026' */
  monthYear: { month: 'long', year: 'numeric' },
  /** '2026' */
  year: { year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>

export type DateStyle = keyof typeof STYLES

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string, style: DateStyle | 'parts'): Intl.DateTimeFormat {
  const key = `${timeZone}|${style}`
  let format = formatters.get(key)
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'parts'
        ? { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : STYLES[style]
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone })
    formatters.set(key, format)
  }
  return format
}

/**
 * Instants formatted before, by style, time zone and instant: a page shows the same dates request
 * after request (an event's occurrences, the articles' days), and Intl takes 4 µs to format one
 * and 12 µs to split one into parts, against half a microsecond to find it here. Bounded: past
 * the limit the oldest goes first.
 */
const MAX_FORMATTED = 4096
const formatted = new Map<string, string>()

function keptFormat(style: DateStyle | 'parts', value: string | Date, timeZone: string): string {
  const instant = new Date(value)
  // Not a date: Intl says so (a RangeError), as it did before anything was kept.
  if (Number.isNaN(instant.getTime())) return formatter(timeZone, 'date').format(instant)
  const key = `${style}|${timeZone}|${instant.getTime()}`
  let text = formatted.get(key)
  if (text === undefined) {
    text = style === 'parts' ? wallClockText(instant, timeZone) : formatter(timeZone, style).format(instant)
    if (formatted.size >= MAX_FORMATTED) formatted.delete(formatted.keys().next().value!)
    formatted.set(key, text)
  }
  return text
}

/** An instant as people read it in the given time zone. */
export function formatDate(value: string | Date, timeZone: string, style: DateStyle): string {
  return keptFormat(style, value, timeZone)
}

/** The year a clock in `timeZone` shows now ('2026'): every page's footer shows it. */
export function currentYearIn(timeZone: string, now: Date = new Date()): string {
  return todayIn(timeZone, now).slice(0, 4)
}

/** A calendar day as people read it ('Saturday, November 28, 2026'); no time zone involved. */
export function formatPlainDate(date: PlainDate, style: DateStyle = 'weekdayDate'): string {
  return formatDate(`${date}T12:00:00Z`, 'UTC', style)
}

/** 'November 2026' */
export function formatMonth(month: PlainMonth): string {
  return formatPlainDate(`${month}-01`, 'monthYear')
}

/** 'YYYY-MM-DDTHH:MM' as a clock in `timeZone` shows the instant. */
function wallClockText(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter(timeZone, 'parts')
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}

/** The calendar day and time of day that a clock in `timeZone` shows at this instant. */
export function wallClockIn(value: string | Date, timeZone: string): { date: PlainDate; time: PlainTime } {
  const [date, time] = keptFormat('parts', value, timeZone).split('T')
  return { date, time }
}

/**
 * Today's date in the time zone. The calendar and an event's page ask for it several times each:
 * it is kept by the minute, whose start shows the same date as its end (every offset in use
 * since 1972 is a whole number of minutes).
 */
export function todayIn(timeZone: string, now: Date = new Date()): PlainDate {
  return keptFormat('parts', new Date(Math.floor(now.getTime() / 60_000) * 60_000), timeZone).slice(0, 10)
}

/**
 * The instant at which a clock in `timeZone` shows this day and time. A time skipped by a
 * daylight-saving change (02:30 on a spring-forward night) moves forward by the gap; a time
 * that occurs twice (the autumn hour) is its first occurrence.
 */
export function instantIn(date: PlainDate, time: PlainTime, timeZone: string): Date {
  const [year, month, day] = splitDate(date)
  const [hour, minute] = time.split(':').map(Number)
  return new Date(new TZDate(year, month - 1, day, hour, minute, timeZone).getTime())
}

function splitDate(date: PlainDate): [number, number, number] {
  const [year, month, day] = date.split('-').map(Number)
  return [year, month, day]
}

function toPlainDate(utc: Date): PlainDate {
  return utc.toISOString().slice(0, 10)
}

/** The day `days` days later (earlier when negative). */
export function addDays(date: PlainDate, days: number): PlainDate {
  const [year, month, day] = splitDate(date)
  return toPlainDate(new Date(Date.UTC(year, month - 1, day + days)))
}

/** The month `months` months later (earlier when negative). */
export function addMonths(month: PlainMonth, months: number): PlainMonth {
  const [year, monthNumber] = month.split('-').map(Number)
  return toPlainDate(new Date(Date.UTC(year, monthNumber - 1 + months, 1))).slice(0, 7)
}

export function monthOf(date: PlainDate): PlainMonth {
  return date.slice(0, 7)
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(date: PlainDate): number {
  const [year, month, day] = splitDate(date)
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay()
}

export function daysInMonth(month: PlainMonth): number {
  const [year, monthNumber] = month.split('-').map(Number)
  return new Date(Date.UTC(year, monthNumber, 0)).getUTCDate()
}

/**
 * The years the site's calendar accepts. Outside them a date is refused rather than walked to:
 * no visitor asks for 9999, and JavaScript reads the years 0-99 as 1900-1999.
 */
export const FIRST_YEAR = 1900
export const LAST_YEAR = 2200

const inYears = (text: string) => text >= String(FIRST_YEAR) && text < String(LAST_YEAR + 1)

/** What is wrong with a day typed in a form ('must be a date'), or null when it is a day the calendar accepts. */
export function plainDateProblem(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'must be a date'
  const [, month, day] = splitDate(text)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(text.slice(0, 7))) return 'must be a date'
  return inYears(text) ? null : `must be between ${FIRST_YEAR} and ${LAST_YEAR}`
}

/** The text if it is a real day ('2026-02-30' is not) between FIRST_YEAR and LAST_YEAR, otherwise null. */
export function parsePlainDate(text: string | null | undefined): PlainDate | null {
  return text && plainDateProblem(text) === null ? text : null
}

/** The text if it is a month ('2026-11') between FIRST_YEAR and LAST_YEAR, otherwise null. */
export function parsePlainMonth(text: string | null | undefined): PlainMonth | null {
  return text && /^\d{4}-(0[1-9]|1[0-2])$/.test(text) && inYears(text) ? text : null
}

/** The text if it is a time of day ('09:30'), otherwise null. */
export function parsePlainTime(text: string | null | undefined): PlainTime | null {
  return text && /^([01]\d|2[0-3]):[0-5]\d$/.test(text) ? text : null
}

/** The weeks (Sunday to Saturday) that a month grid shows, with the neighbouring months' days that fill them. */
export function monthGridWeeks(month: PlainMonth): PlainDate[][] {
  const first = `${month}-01`
  const last = `${month}-${String(daysInMonth(month)).padStart(2, '0')}`
  const start = addDays(first, -weekdayOf(first))
  const end = addDays(last, 6 - weekdayOf(last))
  const weeks: PlainDate[][] = []
  for (let day = start; day <= end; day = addDays(day, 7)) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(day, i)))
  }
  return weeks
}

/** This instant as a Date whose fields (getHours, getDate, ...) read in `timeZone`, for libraries that take such dates. */
export function dateInZone(value: string | Date, timeZone: string): Date {
  return TZDate.tz(timeZone, new Date(value).getTime())
}
