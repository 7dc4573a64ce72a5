import { beforeEach, describe, expect, it } from 'vitest'
import { EventSchema } from '~/modules/events/events.schema'
import { createEvent } from '~/modules/events/events.service.server'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { instantIn } from '~/platform/dates'
import { db, nowIso } from '~/platform/db.server'
import { digestBatchId, getDigestSchedule, sendEventsDigest, sendScheduledDigest, setDigestDay } from './events-digest.server'

const ZONE = 'America/Antigua'
/** Noon in the site's time zone on that day. */
const on = (date: string) => instantIn(date, '12:00', ZONE)

async function addSubscriber(id: string, topics: string) {
  const now = nowIso()
  await db
    .insertInto('subscribers')
    .values({
      id,
      email: `${id}@example.org`,
      firstName: '',
      topics,
      state: 'confirmed',
      confirmSecretHash: null,
      manageSecret: `manage-${id}`,
      createdAt: now,
      pendingSince: null,
      confirmedAt: now,
      unsubscribedAt: null,
      updatedAt: now,
    })
    .execute()
}

/** Who has the digest of the month of `date`. */
async function digestRecipients(date: string): Promise<string[]> {
  const rows = await db
    .selectFrom('outgoingEmails')
    .select('toAddress')
    .where('batchId', '=', digestBatchId(on(date), ZONE))
    .orderBy('toAddress')
    .execute()
  return rows.map((row) => row.toAddress)
}

async function auditedDigests(): Promise<string[]> {
  const rows = await db.selectFrom('auditEvents').select('detail').where('action', '=', 'digest.sent').orderBy('at').execute()
  return rows.map((row) => row.detail ?? '')
}

beforeEach(async () => {
  await saveSiteSettings({ ...DEMO_SITE_SETTINGS, timeZone: ZONE }, { actor: { id: 'test' } })
  // A weekly meeting since January: whatever the month, events are coming.
  await createEvent(
    EventSchema.parse({
      title: 'Prayer meeting',
      description: 'Weekly.',
      location: 'Ministry Centre',
      startDate: '2026-01-05',
      startTime: '19:00',
      repeat: 'weekly',
    }),
    ZONE,
  )
  await addSubscriber('ana', 'events')
  await addSubscriber('ben', 'news')
})

describe('the events digest on a day of the month', () => {
  it('goes out by itself once its day has come, once a month, and again the next month', async () => {
    await setDigestDay(10, on('2027-03-02'))
    expect(await getDigestSchedule(on('2027-03-02'))).toEqual({ day: 10, next: '2027-03-10' })

    expect(await sendScheduledDigest(on('2027-03-09'))).toBeNull()
    expect(await digestRecipients('2027-03-09')).toEqual([])

    expect(await sendScheduledDigest(on('2027-03-10'))).toBe(1)
    expect(await digestRecipients('2027-03-10')).toEqual(['ana@example.org'])
    expect(await getDigestSchedule(on('2027-03-10'))).toEqual({ day: 10, next: '2027-04-10' })

    // Every later pass of the month: nothing more, even for someone who subscribed since.
    await addSubscriber('cleo', 'news,events')
    expect(await sendScheduledDigest(on('2027-03-10'))).toBeNull()
    expect(await sendScheduledDigest(on('2027-03-25'))).toBeNull()
    expect(await digestRecipients('2027-03-25')).toEqual(['ana@example.org'])

    expect(await sendScheduledDigest(on('2027-04-10'))).toBe(2)
    expect(await digestRecipients('2027-04-10')).toEqual(['ana@example.org', 'cleo@example.org'])
    expect(await auditedDigests()).toEqual([
      JSON.stringify({ queued: 1, scheduled: true }),
      JSON.stringify({ queued: 2, scheduled: true }),
    ])
  })

  it('of two processes at the same moment, is queued by one', async () => {
    await setDigestDay(1, on('2027-05-01'))
    const results = await Promise.all([sendScheduledDigest(on('2027-05-01')), sendScheduledDigest(on('2027-05-01'))])
    expect(results.sort()).toEqual([1, null])
    expect(await digestRecipients('2027-05-01')).toEqual(['ana@example.org'])
    expect(await auditedDigests()).toHaveLength(1)
  })

  it('chosen on a day already past this month, waits for next month instead of going out at once', async () => {
    await setDigestDay(5, on('2027-06-20'))
    expect(await getDigestSchedule(on('2027-06-20'))).toEqual({ day: 5, next: '2027-07-05' })
    expect(await sendScheduledDigest(on('2027-06-20'))).toBeNull()
    expect(await sendScheduledDigest(on('2027-07-05'))).toBe(1)
  })

  it('corrected to a day still ahead this month, goes out on that day after all', async () => {
    await setDigestDay(5, on('2027-07-20'))
    await setDigestDay(25, on('2027-07-20'))
    expect(await getDigestSchedule(on('2027-07-20'))).toEqual({ day: 25, next: '2027-07-25' })
    expect(await sendScheduledDigest(on('2027-07-25'))).toBe(1)
  })

  it('missed on its day (the site was down), goes out at the next pass, and says so', async () => {
    await setDigestDay(3, on('2027-12-01'))
    expect(await getDigestSchedule(on('2027-12-09'))).toEqual({ day: 3, next: '2027-12-09' })
    expect(await sendScheduledDigest(on('2027-12-09'))).toBe(1)
    expect(await getDigestSchedule(on('2027-12-09'))).toEqual({ day: 3, next: '2028-01-03' })
  })

  it('after a press of the button this month, reaches only those who have not had it', async () => {
    await sendEventsDigest('https://charity.example', on('2027-08-03'))
    await addSubscriber('dan', 'events')
    await setDigestDay(15, on('2027-08-03'))
    expect(await sendScheduledDigest(on('2027-08-15'))).toBe(1)
    expect(await digestRecipients('2027-08-15')).toEqual(['ana@example.org', 'dan@example.org'])
  })

  it('never goes out by itself until a day is chosen, nor after it is taken back', async () => {
    expect(await getDigestSchedule(on('2027-09-01'))).toEqual({ day: null, next: null })
    expect(await sendScheduledDigest(on('2027-09-01'))).toBeNull()
    await setDigestDay(2, on('2027-09-01'))
    await setDigestDay(null, on('2027-09-01'))
    expect(await sendScheduledDigest(on('2027-09-28'))).toBeNull()
    expect(await digestRecipients('2027-09-28')).toEqual([])
  })

  it('on its day in the site time zone, not the server clock', async () => {
    await setDigestDay(1, on('2027-10-15'))
    // 23:30 on 31 October in Antigua is already 1 November in UTC.
    expect(await sendScheduledDigest(instantIn('2027-10-31', '23:30', ZONE))).toBeNull()
    expect(await sendScheduledDigest(instantIn('2027-11-01', '00:30', ZONE))).toBe(1)
  })
})
