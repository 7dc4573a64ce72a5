import * as rruleExports from 'rrule'
import type { EventRepeatValue } from '~/platform/db-schema'
import { addDays, instantIn, monthOf, todayIn, wallClockIn, type PlainDate, type PlainTime } from '~/platform/dates'

// rrule is a CommonJS package: Node hands its exports over as the default export, Vite's
// development server the named exports of its ES module build.
const rrule = (rruleExports as { default?: typeof rruleExports }).default ?? rruleExports

/**
 * When an event happens: once, or as a series that repeats in the site's local time (the
 * distribution stays at 9:00 on the last Saturday across daylight-saving changes).
 *
 * The series are expanded by rrule in "floating" time: the local day and time are written
 * into a UTC date, rrule does the calendar arithmetic on that, and each result is turned into
 * the real instant in the time zone afterwards.
 */

export interface EventTiming {
  /** ISO-8601 UTC: the first (or only) occurrence; for an all-day event, the start of its day. */
  startsAt: string
  /** For an all-day event: the start of its last day (null for a single day). */
  endsAt: string | null
  /** A date and no time (a distribution day, a deadline): walked like any event, at 00:00. */
  allDay: boolean
  repeat: EventRepeatValue
  /** The series' last day, in the site's time zone. */
  repeatUntil: PlainDate | null
  repeatCount: number | null
  skippedDates: readonly PlainDate[]
}

export interface Occurrence {
  /** The day in the site's time zone. */
  date: PlainDate
  startsAt: Date
  endsAt: Date | null
  allDay: boolean
}

export type Weekday = 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA'
const WEEKDAYS: Weekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']

/** A series' rule in RFC 5545 terms (one source for rrule, the .ics feed and Google Calendar links). */
export interface RepeatRule {
  freq: 'WEEKLY' | 'MONTHLY'
  byDay?: Weekday[]
  /** With byDay in a monthly rule: which of the month's such weekdays (1 = first, -1 = last). */
  bySetPos?: number[]
  byMonthDay?: number[]
  count?: number
  /** The start of the last occurrence (UNTIL is inclusive). */
  until?: Date
}

function floating(date: PlainDate, time: PlainTime): Date {
  const [year, month, day] = date.split('-').map(Number)
  const [hour, minute] = time.split(':').map(Number)
  return new Date(Date.UTC(year, month - 1, day, hour, minute))
}

function fromFloating(value: Date): { date: PlainDate; time: PlainTime } {
  const iso = value.toISOString()
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) }
}

/** The rule without its end, from the first occurrence's local day. */
function ruleShape(repeat: Exclude<EventRepeatValue, 'none'>, firstDate: PlainDate): RepeatRule {
  const weekday = WEEKDAYS[floating(firstDate, '00:00').getUTCDay()]
  const dayOfMonth = Number(firstDate.slice(8, 10))
  switch (repeat) {
    case 'weekly':
      return { freq: 'WEEKLY', byDay: [weekday] }
    case 'monthly-date':
      return { freq: 'MONTHLY', byMonthDay: [dayOfMonth] }
    case 'monthly-weekday':
      return { freq: 'MONTHLY', byDay: [weekday], bySetPos: [Math.ceil(dayOfMonth / 7)] }
    case 'monthly-last-weekday':
      return { freq: 'MONTHLY', byDay: [weekday], bySetPos: [-1] }
  }
}

function toRRule(shape: RepeatRule, dtstart: Date, until: Date | null): InstanceType<typeof rrule.RRule> {
  const { RRule } = rrule
  return new RRule({
    freq: shape.freq === 'WEEKLY' ? RRule.WEEKLY : RRule.MONTHLY,
    dtstart,
    // rrule counts weekdays from Monday.
    byweekday: shape.byDay?.map((day) => (WEEKDAYS.indexOf(day) + 6) % 7) ?? null,
    bysetpos: shape.bySetPos ?? null,
    bymonthday: shape.byMonthDay ?? null,
    count: shape.count ?? null,
    until,
  })
}

interface Series {
  rule: InstanceType<typeof rrule.RRule>
  shape: RepeatRule
  first: { date: PlainDate; time: PlainTime }
}

/**
 * The series, with rrule's walk starting near `near` (a local day): rrule counts every
 * occurrence from its start, so a date in 9999 would cost 400,000 steps from a start in 2026.
 * The rule's days are explicit (BYDAY, BYMONTHDAY), so a later start on the first of a month
 * yields the same dates from there on. A counted series keeps its real start: its count is
 * bounded (REPEAT_COUNT_MAX).
 */
function seriesOf(timing: EventTiming, timeZone: string, near?: PlainDate): Series | null {
  if (timing.repeat === 'none') return null
  const first = wallClockIn(timing.startsAt, timeZone)
  const shape = ruleShape(timing.repeat, first.date)
  if (timing.repeatCount) shape.count = timing.repeatCount
  const until = timing.repeatUntil ? floating(timing.repeatUntil, '23:59') : null
  const monthStart = near && !shape.count ? `${monthOf(near)}-01` : first.date
  const start = monthStart > first.date ? monthStart : first.date
  return { rule: toRRule(shape, floating(start, first.time), until), shape, first }
}

function durationOf(timing: EventTiming): number | null {
  return timing.endsAt ? Date.parse(timing.endsAt) - Date.parse(timing.startsAt) : null
}

/** Days from the first day to the last of an all-day event (a day is not always 24 hours long). */
function daySpanOf(timing: EventTiming, timeZone: string): number {
  if (!timing.endsAt) return 0
  const day = (iso: string) => Date.parse(wallClockIn(iso, timeZone).date)
  return Math.round((day(timing.endsAt) - day(timing.startsAt)) / 86_400_000)
}

function occurrenceAt(local: { date: PlainDate; time: PlainTime }, timing: EventTiming, timeZone: string): Occurrence {
  const startsAt = instantIn(local.date, local.time, timeZone)
  if (timing.allDay) {
    const span = daySpanOf(timing, timeZone)
    const endsAt = span > 0 ? instantIn(addDays(local.date, span), '00:00', timeZone) : null
    return { date: local.date, startsAt, endsAt, allDay: true }
  }
  const duration = durationOf(timing)
  return { date: local.date, startsAt, endsAt: duration === null ? null : new Date(startsAt.getTime() + duration), allDay: false }
}

function theOnlyOccurrence(timing: EventTiming, timeZone: string): Occurrence {
  return {
    date: wallClockIn(timing.startsAt, timeZone).date,
    startsAt: new Date(timing.startsAt),
    endsAt: timing.endsAt ? new Date(timing.endsAt) : null,
    allDay: timing.allDay,
  }
}

/** An all-day event is still to come all through its day: it counts from the start of `from`'s day. */
function upcomingFrom(timing: EventTiming, from: Date, timeZone: string): Date {
  return timing.allDay ? instantIn(todayIn(timeZone, from), '00:00', timeZone) : from
}

/** No request looks at more dates of one series than this (skipped ones included). */
const MAX_STEPS_PER_WALK = 1_000

/** Walks the series' occurrences from about `from` on, skipped dates left out, while `take` says so. */
function walkSeries(timing: EventTiming, timeZone: string, from: Date, take: (occurrence: Occurrence) => boolean): void {
  const skipped = new Set(timing.skippedDates)
  // A day's margin: local time runs up to 14 hours from UTC, and the autumn hour repeats.
  const afterDate = addDays(todayIn(timeZone, from), -1)
  const series = seriesOf(timing, timeZone, afterDate)!
  const farFuture = new Date(Date.UTC(9999, 11, 31, 23, 59))
  let steps = 0
  series.rule.between(floating(afterDate, '00:00'), farFuture, true, (value) => {
    if (++steps > MAX_STEPS_PER_WALK) return false
    const local = fromFloating(value)
    if (skipped.has(local.date)) return true
    return take(occurrenceAt(local, timing, timeZone))
  })
}

/** The occurrences that start in [from, to). */
export function occurrencesBetween(timing: EventTiming, from: Date, to: Date, timeZone: string): Occurrence[] {
  const inRange = (o: Occurrence) => o.startsAt >= from && o.startsAt < to
  if (timing.repeat === 'none') {
    const only = theOnlyOccurrence(timing, timeZone)
    return inRange(only) ? [only] : []
  }
  const found: Occurrence[] = []
  walkSeries(timing, timeZone, from, (occurrence) => {
    if (occurrence.startsAt >= to) return false
    if (inRange(occurrence)) found.push(occurrence)
    return true
  })
  return found
}

/**
 * The occurrences on any day of [from, to): those that start there, and an all-day one that began
 * before and lasts into it (a four-day camp is on each of its days, as calendar apps show it).
 */
export function occurrencesOnDaysBetween(timing: EventTiming, from: Date, to: Date, timeZone: string): Occurrence[] {
  const span = timing.allDay ? daySpanOf(timing, timeZone) : 0
  if (span === 0) return occurrencesBetween(timing, from, to, timeZone)
  const earliest = instantIn(addDays(todayIn(timeZone, from), -span), '00:00', timeZone)
  // An all-day occurrence's end is the start of its last day.
  return occurrencesBetween(timing, earliest, to, timeZone).filter((o) => o.endsAt! >= from)
}

/** The first `limit` occurrences that start at `from` or later (an all-day one: on `from`'s day or later). */
export function nextOccurrences(timing: EventTiming, fromInstant: Date, limit: number, timeZone: string): Occurrence[] {
  const from = upcomingFrom(timing, fromInstant, timeZone)
  if (timing.repeat === 'none') {
    const only = theOnlyOccurrence(timing, timeZone)
    return only.startsAt >= from && limit > 0 ? [only] : []
  }
  const found: Occurrence[] = []
  if (limit <= 0) return found
  walkSeries(timing, timeZone, from, (occurrence) => {
    if (occurrence.startsAt >= from) found.push(occurrence)
    return found.length < limit
  })
  return found
}

/** The occurrence on this local day, if the event has one there (and it is not skipped). */
export function occurrenceOn(timing: EventTiming, date: PlainDate, timeZone: string): Occurrence | null {
  const series = seriesOf(timing, timeZone, date)
  if (!series) {
    const only = theOnlyOccurrence(timing, timeZone)
    return only.date === date ? only : null
  }
  if (timing.skippedDates.includes(date)) return null
  const candidate = floating(date, series.first.time)
  const found = series.rule.between(candidate, candidate, true)
  return found.length > 0 ? occurrenceAt({ date, time: series.first.time }, timing, timeZone) : null
}

/** The start of the last occurrence (skipped dates included), or null when the series never ends. */
export function lastStartOf(timing: EventTiming, timeZone: string): Date | null {
  if (timing.repeat === 'none') return new Date(timing.startsAt)
  if (!timing.repeatCount && !timing.repeatUntil) return null
  // Every rule has a date within a year (the fifth Tuesday comes at least every few months).
  const yearBefore = timing.repeatUntil ? addDays(timing.repeatUntil, -366) : undefined
  const series = seriesOf(timing, timeZone, yearBefore)!
  const last = timing.repeatCount ? series.rule.all().at(-1) : series.rule.before(floating(timing.repeatUntil!, '23:59'), true)
  return last ? instantIn(fromFloating(last).date, fromFloating(last).time, timeZone) : new Date(timing.startsAt)
}

/** The series' rule with its end, for the .ics feed and calendar links; null for a one-off event. */
export function repeatRuleOf(timing: EventTiming, timeZone: string): RepeatRule | null {
  const series = seriesOf(timing, timeZone)
  if (!series) return null
  const rule: RepeatRule = { ...series.shape }
  if (timing.repeatUntil && !timing.repeatCount) rule.until = lastStartOf(timing, timeZone) ?? undefined
  return rule
}

/**
 * The rule as an RRULE value ('FREQ=MONTHLY;BYDAY=SA;BYSETPOS=-1'). For an all-day event, UNTIL
 * is a date like its start (RFC 5545, 3.3.10): the last day in `allDayIn`, the site's time zone.
 */
export function rruleText(rule: RepeatRule, allDayIn?: string): string {
  const parts = [`FREQ=${rule.freq}`]
  if (rule.byDay) parts.push(`BYDAY=${rule.byDay.join(',')}`)
  if (rule.bySetPos) parts.push(`BYSETPOS=${rule.bySetPos.join(',')}`)
  if (rule.byMonthDay) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`)
  if (rule.count) parts.push(`COUNT=${rule.count}`)
  const until =
    rule.until && allDayIn
      ? wallClockIn(rule.until, allDayIn).date.replaceAll('-', '')
      : rule.until
          ?.toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d{3}/, '')
  if (until) parts.push(`UNTIL=${until}`)
  return parts.join(';')
}
