import { describe, expect, it } from 'vitest'
import { instantIn, wallClockIn } from '~/platform/dates'
import {
  lastStartOf,
  nextOccurrences,
  occurrenceOn,
  occurrencesBetween,
  repeatRuleOf,
  rruleText,
  type EventTiming,
} from './events.recurrence.server'
import { describeRepeat } from './events.wording.server'
import { isLastWeekdayOfMonth } from './events.schema'

const ANTIGUA = 'America/Antigua'
const NEW_YORK = 'America/New_York'
const LONDON = 'Europe/London'

function timing(zone: string, date: string, time: string, rest: Partial<EventTiming> = {}): EventTiming {
  const startsAt = instantIn(date, time, zone)
  return {
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 3 * 3_600_000).toISOString(),
    allDay: false,
    repeat: 'none',
    repeatUntil: null,
    repeatCount: null,
    skippedDates: [],
    ...rest,
  }
}

const dates = (occurrences: { date: string }[]) => occurrences.map((o) => o.date)
const yearFrom = (zone: string, date: string) =>
  [instantIn(date, '00:00', zone), instantIn(`${Number(date.slice(0, 4)) + 1}${date.slice(4)}`, '00:00', zone)] as const

describe('the distribution on the last Saturday of every month', () => {
  const distribution = timing(ANTIGUA, '2026-01-31', '09:00', { repeat: 'monthly-last-weekday' })

  it('lands on the last Saturday in every month, leap year included', () => {
    const [from, to] = yearFrom(ANTIGUA, '2028-01-01')
    expect(dates(occurrencesBetween(distribution, from, to, ANTIGUA))).toEqual([
      '2028-01-29',
      '2028-02-26',
      '2028-03-25',
      '2028-04-29',
      '2028-05-27',
      '2028-06-24',
      '2028-07-29',
      '2028-08-26',
      '2028-09-30',
      '2028-10-28',
      '2028-11-25',
      '2028-12-30',
    ])
  })

  it('is described as people say it', () => {
    expect(describeRepeat(distribution, ANTIGUA)).toBe('Every month on the last Saturday')
    expect(rruleText(repeatRuleOf(distribution, ANTIGUA)!)).toBe('FREQ=MONTHLY;BYDAY=SA;BYSETPOS=-1')
  })

  it('accepts only a last weekday as the first date of such a series', () => {
    expect(isLastWeekdayOfMonth('2026-11-28')).toBe(true)
    expect(isLastWeekdayOfMonth('2026-11-21')).toBe(false)
    expect(isLastWeekdayOfMonth('2028-02-26')).toBe(true)
    expect(isLastWeekdayOfMonth('2028-02-22')).toBe(false)
    expect(isLastWeekdayOfMonth('2028-02-23')).toBe(true)
  })

  it('leaves out skipped dates and stops at its end', () => {
    const series = { ...distribution, skippedDates: ['2026-03-28'], repeatUntil: '2026-05-30' }
    const [from, to] = yearFrom(ANTIGUA, '2026-01-01')
    expect(dates(occurrencesBetween(series, from, to, ANTIGUA))).toEqual(['2026-01-31', '2026-02-28', '2026-04-25', '2026-05-30'])
    expect(lastStartOf(series, ANTIGUA)?.toISOString()).toBe('2026-05-30T13:00:00.000Z')
    expect(occurrenceOn(series, '2026-03-28', ANTIGUA)).toBeNull()
    expect(occurrenceOn(series, '2026-04-25', ANTIGUA)?.startsAt.toISOString()).toBe('2026-04-25T13:00:00.000Z')
    expect(occurrenceOn(series, '2026-04-24', ANTIGUA)).toBeNull()
  })
})

describe('repeating events', () => {
  it('repeat weekly for a number of times (skipped dates still count)', () => {
    const weekly = timing(ANTIGUA, '2026-12-24', '18:00', { repeat: 'weekly', repeatCount: 3, skippedDates: ['2026-12-31'] })
    expect(dates(nextOccurrences(weekly, new Date('2026-01-01'), 10, ANTIGUA))).toEqual(['2026-12-24', '2027-01-07'])
    expect(lastStartOf(weekly, ANTIGUA)?.toISOString()).toBe('2027-01-07T22:00:00.000Z')
    expect(describeRepeat(weekly, ANTIGUA)).toBe('Every week on Thursday, 3 times')
  })

  it('repeat monthly on a date, skipping months without it', () => {
    const monthly = timing(ANTIGUA, '2026-01-31', '10:00', { repeat: 'monthly-date' })
    expect(dates(nextOccurrences(monthly, new Date('2026-01-01'), 4, ANTIGUA))).toEqual([
      '2026-01-31',
      '2026-03-31',
      '2026-05-31',
      '2026-07-31',
    ])
    expect(describeRepeat(monthly, ANTIGUA)).toBe('Every month on the 31st')
  })

  it('repeat monthly on the n-th weekday', () => {
    // The second Tuesday.
    const meeting = timing(ANTIGUA, '2026-11-10', '18:30', { repeat: 'monthly-weekday' })
    expect(dates(nextOccurrences(meeting, new Date('2026-11-11'), 3, ANTIGUA))).toEqual([
      '2026-12-08',
      '2027-01-12',
      '2027-02-09',
    ])
    expect(describeRepeat(meeting, ANTIGUA)).toBe('Every month on the second Tuesday')
  })

  it('keep their local time across daylight saving in New York and London', () => {
    for (const zone of [NEW_YORK, LONDON]) {
      const weekly = timing(zone, '2026-03-01', '09:00', { repeat: 'weekly' })
      const [from, to] = yearFrom(zone, '2026-03-01')
      const occurrences = occurrencesBetween(weekly, from, to, zone)
      expect(occurrences.length).toBe(53)
      for (const o of occurrences) expect(wallClockIn(o.startsAt, zone).time).toBe('09:00')
      // Three hours long in winter and in summer.
      for (const o of occurrences) expect(o.endsAt!.getTime() - o.startsAt.getTime()).toBe(3 * 3_600_000)
      const utcHours = new Set(occurrences.map((o) => o.startsAt.getUTCHours()))
      expect(utcHours.size).toBe(2)
    }
  })

  it('put an event at 23:30 on its local day, in every zone', () => {
    for (const zone of [ANTIGUA, NEW_YORK, LONDON, 'Pacific/Auckland']) {
      const late = timing(zone, '2026-06-30', '23:30', { repeat: 'weekly', repeatCount: 2 })
      expect(dates(nextOccurrences(late, new Date('2026-06-01'), 5, zone))).toEqual(['2026-06-30', '2026-07-07'])
      expect(occurrenceOn(late, '2026-07-07', zone)).not.toBeNull()
      const once = timing(zone, '2026-06-30', '23:30')
      expect(dates(nextOccurrences(once, new Date('2026-06-01'), 5, zone))).toEqual(['2026-06-30'])
    }
  })

  it('list only occurrences that have not started yet', () => {
    const weekly = timing(ANTIGUA, '2026-11-07', '09:00', { repeat: 'weekly' })
    const now = instantIn('2026-11-14', '09:00', ANTIGUA)
    expect(dates(nextOccurrences(weekly, now, 2, ANTIGUA))).toEqual(['2026-11-14', '2026-11-21'])
    const later = new Date(now.getTime() + 1)
    expect(dates(nextOccurrences(weekly, later, 2, ANTIGUA))).toEqual(['2026-11-21', '2026-11-28'])
    expect(lastStartOf(weekly, ANTIGUA)).toBeNull()
  })

  it('of all-day events are still to come all through their day, and keep their days across daylight saving', () => {
    // Three days, from the last Saturday, in a zone whose clocks change in the spring and autumn.
    const camp = timing(LONDON, '2026-09-26', '00:00', {
      allDay: true,
      endsAt: instantIn('2026-09-28', '00:00', LONDON).toISOString(),
      repeat: 'monthly-last-weekday',
    })
    const afternoon = instantIn('2026-10-31', '15:00', LONDON)
    const [today, next] = nextOccurrences(camp, afternoon, 2, LONDON)
    expect([today.date, today.allDay, wallClockIn(today.endsAt!, LONDON)]).toEqual([
      '2026-10-31',
      true,
      { date: '2026-11-02', time: '00:00' },
    ])
    expect(wallClockIn(today.startsAt, LONDON)).toEqual({ date: '2026-10-31', time: '00:00' })
    expect(next.date).toBe('2026-11-28')
    expect(dates(nextOccurrences(camp, instantIn('2026-11-01', '00:00', LONDON), 1, LONDON))).toEqual(['2026-11-28'])
  })

  it('end on a date given in local time, with UNTIL in UTC for the feed', () => {
    const weekly = timing(ANTIGUA, '2026-11-07', '21:00', { repeat: 'weekly', repeatUntil: '2026-11-21' })
    expect(rruleText(repeatRuleOf(weekly, ANTIGUA)!)).toBe('FREQ=WEEKLY;BYDAY=SA;UNTIL=20261122T010000Z')
    expect(describeRepeat(weekly, ANTIGUA)).toBe('Every week on Saturday, until November 21, 2026')
  })
})

describe('a date far from the start of a series', () => {
  const kinds = ['weekly', 'monthly-date', 'monthly-weekday', 'monthly-last-weekday'] as const
  // Starts chosen so that each kind has its awkward case: the 31st, the fifth Saturday, the last one.
  const starts = {
    weekly: '2026-01-03',
    'monthly-date': '2026-01-31',
    'monthly-weekday': '2026-01-31',
    'monthly-last-weekday': '2026-01-31',
  }

  it('has the dates a walk from the start finds', () => {
    for (const repeat of kinds) {
      const series = timing(ANTIGUA, starts[repeat], '09:00', { repeat, skippedDates: ['2031-03-29'] })
      const fromTheStart = nextOccurrences(series, new Date(series.startsAt), 400, ANTIGUA)
      const [from, to] = yearFrom(ANTIGUA, '2031-01-01')
      const expected = fromTheStart.filter((o) => o.startsAt >= from && o.startsAt < to)
      expect(expected.length, repeat).toBeGreaterThan(0)
      expect(dates(occurrencesBetween(series, from, to, ANTIGUA)), repeat).toEqual(dates(expected))
      expect(dates(nextOccurrences(series, from, 3, ANTIGUA)), repeat).toEqual(dates(expected.slice(0, 3)))
      for (const { date } of expected) expect(occurrenceOn(series, date, ANTIGUA)?.date, repeat).toBe(date)
    }
  })

  it('ends a series on its last date, however far away', () => {
    // The 31st: November 9999 has none, so the last is in October.
    const series = timing(ANTIGUA, '2026-01-31', '09:00', { repeat: 'monthly-date', repeatUntil: '9999-12-30' })
    expect(wallClockIn(lastStartOf(series, ANTIGUA)!, ANTIGUA).date).toBe('9999-10-31')
    expect(dates(nextOccurrences(series, instantIn('9999-10-01', '00:00', ANTIGUA), 5, ANTIGUA))).toEqual(['9999-10-31'])
  })
})
