import { describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { addDays, instantIn, wallClockIn } from '~/platform/dates'
import { distributionTimes, seedEvents } from './events.demo.server'
import { getEventForEdit, listEventsForAdmin } from './events.admin-queries.server'
import {
  countUpcomingEvents,
  getEventBySlug,
  listEventsForFeed,
  listOccurrencesOnDays,
  listUpcomingOccurrences,
} from './events.queries.server'
import { EventSchema, type EventFormValues } from './events.schema'
import { createEvent, deleteEvent, deleteOccurrence, EventNotFoundError, updateEvent } from './events.service.server'
import { moveToTrash } from '~/modules/trash/trash.server'

const ZONE = 'America/Antigua'

function input(values: Partial<EventFormValues> & { title: string; startDate: string }) {
  return EventSchema.parse({ description: 'About it', startTime: '09:00', location: 'Ministry Centre', ...values })
}

const at = (date: string, time: string) => instantIn(date, time, ZONE)
const summary = (list: { date: string; title: string }[]) => list.map((o) => `${o.date} ${o.title}`)

describe('events', () => {
  it('places a one-off event at 23:30 on its own day in the site time zone', async () => {
    await createEvent(input({ title: 'Late vigil', startDate: '2026-11-30', startTime: '23:30' }), ZONE)
    const row = await db.selectFrom('events').select(['startsAt', 'endsAt']).executeTakeFirstOrThrow()
    expect(row).toEqual({ startsAt: '2026-12-01T03:30:00.000Z', endsAt: null })
    expect(summary(await listOccurrencesOnDays('2026-11-29', '2026-12-05', ZONE))).toEqual(['2026-11-30 Late vigil'])
    expect(await listOccurrencesOnDays('2026-12-01', '2026-12-31', ZONE)).toEqual([])
  })

  it('lists a month with its one-off events and the occurrences of series, in order', async () => {
    await createEvent(
      input({ title: 'Distribution', startDate: '2026-01-31', repeat: 'monthly-last-weekday', endTime: '12:00' }),
      ZONE,
    )
    await createEvent(
      input({ title: 'Support group', startDate: '2026-01-13', startTime: '18:00', repeat: 'monthly-weekday' }),
      ZONE,
    )
    await createEvent(input({ title: 'Market day', startDate: '2026-11-28', startTime: '08:00' }), ZONE)
    await createEvent(input({ title: 'Last year', startDate: '2025-11-28' }), ZONE)
    expect(summary(await listOccurrencesOnDays('2026-11-01', '2026-11-30', ZONE))).toEqual([
      '2026-11-10 Support group',
      '2026-11-28 Market day',
      '2026-11-28 Distribution',
    ])
    const [distribution] = await listOccurrencesOnDays('2026-11-28', '2026-11-28', ZONE).then((l) => l.filter((o) => o.repeats))
    expect(distribution).toMatchObject({ startsAt: '2026-11-28T13:00:00.000Z', endsAt: '2026-11-28T16:00:00.000Z' })
  })

  it('puts an all-day event on each of its days, when it began before the days asked for too', async () => {
    await createEvent(input({ title: 'Camp', startDate: '2026-11-28', endDate: '2026-12-01', startTime: undefined }), ZONE)
    await createEvent(
      input({ title: 'Retreat', startDate: '2026-10-30', endDate: '2026-11-01', startTime: undefined, repeat: 'monthly-date' }),
      ZONE,
    )
    expect(summary(await listOccurrencesOnDays('2026-12-01', '2026-12-05', ZONE))).toEqual([
      '2026-11-28 Camp',
      '2026-11-30 Retreat',
    ])
    expect(summary(await listOccurrencesOnDays('2026-12-02', '2026-12-05', ZONE))).toEqual(['2026-11-30 Retreat'])
    expect(await listOccurrencesOnDays('2026-12-03', '2026-12-05', ZONE)).toEqual([])
  })

  it('lists upcoming occurrences from now on, soonest first, at most the limit, and counts upcoming events', async () => {
    await createEvent(input({ title: 'Weekly prayer', startDate: '2026-11-02', startTime: '19:00', repeat: 'weekly' }), ZONE)
    await createEvent(input({ title: 'Gala', startDate: '2026-11-20', startTime: '19:00' }), ZONE)
    await createEvent(input({ title: 'Over', startDate: '2026-11-01' }), ZONE)
    const now = at('2026-11-09', '19:00')
    const upcoming = await listUpcomingOccurrences({ from: now, limit: 4, timeZone: ZONE })
    expect(summary(upcoming)).toEqual([
      '2026-11-09 Weekly prayer',
      '2026-11-16 Weekly prayer',
      '2026-11-20 Gala',
      '2026-11-23 Weekly prayer',
    ])
    expect(await countUpcomingEvents({ from: now, timeZone: ZONE })).toBe(2)
    expect(await countUpcomingEvents({ from: at('2026-11-21', '00:00'), timeZone: ZONE })).toBe(1)
  })

  it('takes one date out of a series, or deletes a one-off event, and tolerates doing it twice', async () => {
    const series = await createEvent(
      input({ title: 'Distribution', startDate: '2026-10-31', repeat: 'monthly-last-weekday' }),
      ZONE,
    )
    const once = await createEvent(input({ title: 'Once', startDate: '2026-11-05' }), ZONE)
    await deleteOccurrence(series.id, '2026-11-28')
    await deleteOccurrence(series.id, '2026-11-28')
    // A one-off event's only date is the whole event: the admin's delete moves it to the trash.
    expect(await deleteOccurrence(once.id, '2026-11-05')).toEqual({ oneOff: true })
    await moveToTrash('event', once.id)
    expect(await deleteOccurrence(once.id, '2026-11-05')).toBeUndefined()
    const from = at('2026-10-01', '00:00')
    expect(summary(await listUpcomingOccurrences({ from, limit: 3, timeZone: ZONE }))).toEqual([
      '2026-10-31 Distribution',
      '2026-12-26 Distribution',
      '2027-01-30 Distribution',
    ])
    expect((await getEventForEdit(series.id, ZONE))?.values.skippedDates).toEqual(['2026-11-28'])

    await deleteEvent(series.id)
    await deleteEvent(series.id)
    expect(await listEventsForFeed()).toEqual([])
    expect(await db.selectFrom('eventSkippedDates').selectAll().execute()).toEqual([])
  })

  it('edits an event through the form values it shows, keeping its address', async () => {
    const { id, slug } = await createEvent(
      input({
        title: 'Youth Market',
        startDate: '2026-11-28',
        startTime: '23:30',
        endDate: '2026-11-29',
        endTime: '01:00',
        type: 'celebration',
        repeat: 'weekly',
        repeatEnds: 'after-count',
        repeatCount: 3,
        skipDate: '2026-12-05',
      }),
      ZONE,
    )
    expect(slug).toBe('youth-market')
    const shown = await getEventForEdit(id, ZONE)
    expect(shown?.values).toMatchObject({
      startDate: '2026-11-28',
      startTime: '23:30',
      endDate: '2026-11-29',
      endTime: '01:00',
      type: 'celebration',
      repeat: 'weekly',
      repeatEnds: 'after-count',
      repeatCount: 3,
      skippedDates: ['2026-12-05'],
    })

    await updateEvent(
      id,
      EventSchema.parse({
        ...shown!.values,
        title: 'Youth Market Day',
        skippedDates: [],
        repeatEnds: 'on-date',
        repeatUntil: '2026-12-12',
      }),
      ZONE,
    )
    const event = await getEventBySlug('youth-market', { date: '2026-12-05', timeZone: ZONE, now: at('2026-11-01', '00:00') })
    expect(event?.title).toBe('Youth Market Day')
    expect(event?.occurrence).toMatchObject({
      date: '2026-12-05',
      startsAt: '2026-12-06T03:30:00.000Z',
      endsAt: '2026-12-06T05:00:00.000Z',
    })
    expect(event?.repeatText).toBe('Every week on Saturday, until December 12, 2026')
    expect(event?.laterOccurrences.map((o) => o.date)).toEqual(['2026-12-12'])
    await expect(updateEvent(crypto.randomUUID(), EventSchema.parse(shown!.values), ZONE)).rejects.toThrow(EventNotFoundError)
  })

  it('gives each event an address of its own', async () => {
    const slugs = []
    for (const title of ['Gala Night', 'Gala night!', '🎉'])
      slugs.push((await createEvent(input({ title, startDate: '2026-11-28' }), ZONE)).slug)
    expect(slugs).toEqual(['gala-night', 'gala-night-2', 'event'])
  })

  it('shows, for a date without an occurrence, the next occurrence; for an event that is over, its first', async () => {
    await createEvent(
      input({ title: 'Weekly', startDate: '2026-11-07', repeat: 'weekly', repeatEnds: 'after-count', repeatCount: 2 }),
      ZONE,
    )
    const now = at('2026-11-10', '00:00')
    expect((await getEventBySlug('weekly', { date: '2026-11-08', timeZone: ZONE, now }))?.occurrence.date).toBe('2026-11-14')
    const later = at('2026-12-01', '00:00')
    expect((await getEventBySlug('weekly', { date: null, timeZone: ZONE, now: later }))?.occurrence.date).toBe('2026-11-07')
    expect(await getEventBySlug('nothing', { date: null, timeZone: ZONE })).toBeNull()
  })

  it('lists events for the admin: those to come soonest first, then those that are over', async () => {
    await createEvent(input({ title: 'Old', startDate: '2026-01-10' }), ZONE)
    await createEvent(input({ title: 'Older', startDate: '2025-01-10' }), ZONE)
    await createEvent(input({ title: 'Soon', startDate: '2026-11-20' }), ZONE)
    await createEvent(input({ title: 'Series', startDate: '2026-01-31', repeat: 'monthly-last-weekday' }), ZONE)
    const rows = await listEventsForAdmin({ now: at('2026-11-10', '00:00'), timeZone: ZONE })
    expect(rows.events.map((r) => `${r.title} ${r.shown.date} ${r.upcoming}`)).toEqual([
      'Soon 2026-11-20 true',
      'Series 2026-11-28 true',
      'Old 2026-01-10 false',
      'Older 2025-01-10 false',
    ])
  })

  it('pages the admin list: events over for years come from the database, in order with those just over', async () => {
    const now = at('2026-11-10', '12:00')
    const past: { title: string; began: string; id: string }[] = []
    const add = async (title: string, began: string, values: Partial<EventFormValues> = {}) => {
      const { id } = await createEvent(input({ title, startDate: began, ...values }), ZONE)
      past.push({ title, began, id })
    }
    for (let i = 0; i < 60; i++) await add(`Over ${addDays('2024-01-01', 10 * i)}`, addDays('2024-01-01', 10 * i))
    for (let day = 1; day <= 5; day++) await createEvent(input({ title: `Coming ${day}`, startDate: `2026-12-0${day}` }), ZONE)
    // Over a few hours ago, and two series whose last Monday was yesterday: by their last start
    // they may still occur, so they are worked out with the events to come, then placed among the
    // others: the second began years ago (on page 2), at the very time of a one-off event.
    await add('Just over', '2026-11-10')
    const untilYesterday = { repeat: 'weekly', repeatEnds: 'on-date', repeatUntil: '2026-11-09' } as const
    await add('Mondays since June 2025', '2025-06-09', untilYesterday)
    await add('Mondays since March 2024', '2024-03-11', untilYesterday)

    const pages = await Promise.all([1, 2].map((page) => listEventsForAdmin({ now, timeZone: ZONE, page })))
    expect(pages.map((p) => [p.events.length, p.total])).toEqual([
      [50, 68],
      [18, 68],
    ])
    // Latest first by their first date (all at 09:00); a tie goes to the smaller id.
    const byBeginning = past.sort((a, b) => (a.began !== b.began ? (a.began < b.began ? 1 : -1) : a.id < b.id ? -1 : 1))
    expect(pages.flatMap((p) => p.events.map((e) => e.title))).toEqual([
      ...[1, 2, 3, 4, 5].map((day) => `Coming ${day}`),
      ...byBeginning.map((e) => e.title),
    ])
    expect(pages[1].events.map((e) => e.title)).toContain('Mondays since March 2024')
    expect(pages[1].events.find((e) => e.title === 'Mondays since March 2024')).toMatchObject({
      upcoming: false,
      shown: { date: '2024-03-11' },
    })
    expect(pages[1].events.at(-1)).toMatchObject({ title: 'Over 2024-01-01', upcoming: false, shown: { date: '2024-01-01' } })
    expect((await listEventsForAdmin({ now, timeZone: ZONE, page: 3 })).events).toEqual([])
  })

  it('fills a new site with the demo calendar: the distribution on the last Saturday with the contact page hours', async () => {
    const now = new Date('2026-11-22T12:00:00Z')
    await db
      .transaction()
      .execute((trx) =>
        seedEvents(
          trx,
          { distributionHours: 'Last Saturday of every month, 8:30 AM - 1:00 PM', location: 'Antigua', timeZone: ZONE },
          now,
        ),
      )
    const upcoming = await listUpcomingOccurrences({ from: now, limit: 8, timeZone: ZONE })
    const distribution = upcoming.filter((o) => o.title === 'Monthly Food and Clothing Distribution')
    expect(distribution.map((o) => o.date).slice(0, 3)).toEqual(['2026-11-28', '2026-12-26', '2027-01-30'])
    expect(wallClockIn(distribution[0].startsAt, ZONE).time).toBe('08:30')
    expect(wallClockIn(distribution[0].endsAt!, ZONE).time).toBe('13:00')
    expect(new Set(upcoming.map((o) => o.title))).toEqual(
      new Set([
        'Monthly Food and Clothing Distribution',
        'Cancer Survivors Support Group',
        'Youth Market Day',
        'Hope Gala Fundraising Dinner',
      ]),
    )
    expect(await countUpcomingEvents({ from: now, timeZone: ZONE })).toBe(4)
  })

  it('reads the distribution hours as people write them', () => {
    expect(distributionTimes('Last Saturday of every month, 9:00 AM - 12:00 PM')).toEqual({ start: '09:00', end: '12:00' })
    expect(distributionTimes('9 - 12 pm')).toEqual({ start: '09:00', end: '12:00' })
    expect(distributionTimes('1:30 to 4 PM')).toEqual({ start: '13:30', end: '16:00' })
    expect(distributionTimes('08:00–11:30')).toEqual({ start: '08:00', end: '11:30' })
    expect(distributionTimes('')).toEqual({ start: '09:00', end: '12:00' })
    expect(distributionTimes('mornings')).toEqual({ start: '09:00', end: '12:00' })
  })
})
