import { describe, expect, it } from 'vitest'
import {
  addDays,
  addMonths,
  currentYearIn,
  daysInMonth,
  formatDate,
  formatMonth,
  formatPlainDate,
  instantIn,
  monthGridWeeks,
  parsePlainDate,
  parsePlainMonth,
  parsePlainTime,
  todayIn,
  wallClockIn,
  weekdayOf,
} from './dates'

describe('month arithmetic', () => {
  it('crosses year ends both ways', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01')
    expect(addMonths('2027-01', -1)).toBe('2026-12')
    expect(addMonths('2026-11', 14)).toBe('2028-01')
    expect(addMonths('2026-01', -13)).toBe('2024-12')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31')
  })

  it('knows leap years', () => {
    expect(daysInMonth('2028-02')).toBe(29)
    expect(daysInMonth('2026-02')).toBe(28)
    expect(daysInMonth('2000-02')).toBe(29)
    expect(daysInMonth('2100-02')).toBe(28)
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
    expect(parsePlainDate('2028-02-29')).toBe('2028-02-29')
    expect(parsePlainDate('2026-02-29')).toBeNull()
  })

  it('lays a month out in weeks from Sunday to Saturday', () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const november = monthGridWeeks('2026-11')
    expect(november[0][0]).toBe('2026-11-01')
    expect(november.at(-1)).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
    ])
    // February 2026 starts on a Sunday and has exactly four weeks.
    expect(monthGridWeeks('2026-02')).toHaveLength(4)
    // January 2028 starts on a Saturday: the grid begins in December 2027.
    const january = monthGridWeeks('2028-01')
    expect(january[0]).toEqual(['2027-12-26', '2027-12-27', '2027-12-28', '2027-12-29', '2027-12-30', '2027-12-31', '2028-01-01'])
    expect(january).toHaveLength(6)
    for (const week of january) expect(weekdayOf(week[0])).toBe(0)
  })

  it('accepts only real dates, months and times', () => {
    expect(parsePlainMonth('2026-11')).toBe('2026-11')
    for (const bad of ['2026-13', '2026-00', '2026-1', 'x', '', null, '2026-11-01', '0000-01']) {
      expect(parsePlainMonth(bad)).toBeNull()
    }
    for (const bad of ['2026-04-31', '2026-4-01', '2026-04-01T00:00', '']) expect(parsePlainDate(bad)).toBeNull()
    expect(parsePlainTime('23:30')).toBe('23:30')
    for (const bad of ['24:00', '9:30', '09:60', '']) expect(parsePlainTime(bad)).toBeNull()
  })
})

describe('time zones', () => {
  it('places 23:30 in Antigua on its own day although it is the next day in UTC', () => {
    const instant = instantIn('2026-11-28', '23:30', 'America/Antigua')
    expect(instant.toISOString()).toBe('2026-11-29T03:30:00.000Z')
    expect(wallClockIn(instant, 'America/Antigua')).toEqual({ date: '2026-11-28', time: '23:30' })
    expect(todayIn('America/Antigua', instant)).toBe('2026-11-28')
    expect(todayIn('UTC', instant)).toBe('2026-11-29')
  })

  it('turns today over at midnight to the millisecond, in a zone whose offset has half hours', () => {
    const midnight = instantIn('2026-11-29', '00:00', 'Asia/Kolkata')
    expect(todayIn('Asia/Kolkata', new Date(midnight.getTime() - 1))).toBe('2026-11-28')
    expect(todayIn('Asia/Kolkata', midnight)).toBe('2026-11-29')
    expect(todayIn('Asia/Kolkata', new Date(midnight.getTime() + 59_999))).toBe('2026-11-29')
    expect(todayIn('Asia/Kolkata', new Date(midnight.getTime() - 60_001))).toBe('2026-11-28')
  })

  it('keeps the local time across daylight-saving changes (New York, London)', () => {
    expect(instantIn('2026-07-01', '09:00', 'America/New_York').toISOString()).toBe('2026-07-01T13:00:00.000Z')
    expect(instantIn('2026-12-01', '09:00', 'America/New_York').toISOString()).toBe('2026-12-01T14:00:00.000Z')
    expect(instantIn('2026-07-01', '09:00', 'Europe/London').toISOString()).toBe('2026-07-01T08:00:00.000Z')
    expect(instantIn('2026-12-01', '09:00', 'Europe/London').toISOString()).toBe('2026-12-01T09:00:00.000Z')
    // Antigua has no daylight saving: always four hours behind UTC.
    expect(instantIn('2026-07-01', '09:00', 'America/Antigua').toISOString()).toBe('2026-07-01T13:00:00.000Z')
    expect(instantIn('2026-12-01', '09:00', 'America/Antigua').toISOString()).toBe('2026-12-01T13:00:00.000Z')
  })

  it('moves a time that a spring-forward night skips to after the gap', () => {
    // 02:30 does not exist in New York on March 8, 2026.
    const instant = instantIn('2026-03-08', '02:30', 'America/New_York')
    expect(wallClockIn(instant, 'America/New_York')).toEqual({ date: '2026-03-08', time: '03:30' })
  })

  it('formats in the site time zone with one set of styles', () => {
    const iso = '2026-11-29T03:30:00.000Z'
    expect(formatDate(iso, 'America/Antigua', 'date')).toBe('November 28, 2026')
    expect(formatDate(iso, 'Europe/London', 'date')).toBe('November 29, 2026')
    expect(formatDate(iso, 'America/Antigua', 'shortWeekdayDateTime')).toBe('Sat, Nov 28, 11:30 PM')
    expect(formatDate(iso, 'America/Antigua', 'dateTime')).toBe('Nov 28, 2026, 11:30 PM')
    expect(formatDate('2026-12-31T23:30:00Z', 'Asia/Tokyo', 'year')).toBe('2027')
    expect(formatPlainDate('2026-11-28')).toBe('Saturday, November 28, 2026')
    expect(formatMonth('2026-11')).toBe('November 2026')
  })

  it('gives the same text for an instant formatted again, however it is given, also past the formats kept', () => {
    const iso = '2026-11-29T03:30:00.000Z'
    for (let round = 0; round < 2; round++) {
      expect(formatDate(new Date(iso), 'America/Antigua', 'date')).toBe('November 28, 2026')
      expect(formatDate(iso, 'America/Antigua', 'date')).toBe('November 28, 2026')
      expect(wallClockIn(iso, 'America/Antigua')).toEqual({ date: '2026-11-28', time: '23:30' })
      expect(wallClockIn(new Date(iso), 'Europe/London')).toEqual({ date: '2026-11-29', time: '03:30' })
      // More instants than are kept: the first ones are formatted again.
      for (let minute = 0; minute < 5000; minute++) formatDate(new Date(Date.UTC(2030, 0, 1, 0, minute)), 'UTC', 'time')
      expect(formatDate(new Date(Date.UTC(2030, 0, 1, 0, 1)), 'UTC', 'time')).toBe('12:01 AM')
    }
    expect(() => formatDate('not a date', 'UTC', 'date')).toThrow(RangeError)
  })
})

describe('the year shown in every footer', () => {
  it('is the year of the site’s time zone, from its first millisecond, and again when the clock goes back', () => {
    const at = (iso: string) => new Date(iso)
    expect(currentYearIn('UTC', at('2026-12-31T23:59:59.999Z'))).toBe('2026')
    expect(currentYearIn('UTC', at('2027-01-01T00:00:00.000Z'))).toBe('2027')
    expect(currentYearIn('UTC', at('2026-12-31T23:59:30Z'))).toBe('2026')
    // Midnight in UTC is still the evening before in the Caribbean.
    expect(currentYearIn('America/Port_of_Spain', at('2027-01-01T00:00:32Z'))).toBe('2026')
    expect(currentYearIn('America/Port_of_Spain', at('2027-01-01T04:00:00Z'))).toBe('2027')
    expect(currentYearIn('America/Port_of_Spain', at('2026-06-01T12:00:00Z'))).toBe('2026')
  })
})
