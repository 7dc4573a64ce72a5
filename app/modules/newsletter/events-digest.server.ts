import { z } from 'zod'
import { BY_THE_SITE, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { listUpcomingOccurrences } from '~/modules/events/events.queries.server'
import { formatOccurrenceWhen } from '~/modules/events/events.wording.server'
import { OutgoingMailQuotaError } from '~/modules/outgoing-mail/outgoing-mail.server'
import { sendQueuedEmailsSoon } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import type { SiteSettings } from '~/modules/settings/settings.schema'
import { todayIn } from '~/platform/dates'
import { db, nowIso, type Db } from '~/platform/db.server'
import { escapeMarkup } from '~/platform/escape-markup'
import { logger } from '~/platform/logger.server'
import type { EmailContent } from './newsletter.emails.server'
import { LAST_DIGEST_DAY } from './newsletter.schema'
import { backgroundOrigin, queueToSubscribers } from './subscriber-mailing.server'

/**
 * The digest of upcoming events, e-mailed to the subscribers of Events at most once a month to
 * each: by an administrator's button, or by itself on a day of the month they chose.
 */

/** Events a digest lists at most: those of the coming weeks, nearest first. */
const DIGEST_EVENTS = 20

const monthOf = (date: string) => date.slice(0, 7)
const dayOf = (date: string) => Number(date.slice(8, 10))

/** The digest of a month, e.g. `digest:2026-12`: sent at most once a month to each subscriber. */
export function digestBatchId(now = new Date(), timeZone = 'UTC'): string {
  return `digest:${monthOf(todayIn(timeZone, now))}`
}

interface Digest {
  batchId: string
  organisationName: string
  origin: string
  content: EmailContent
}

/** This month's digest as of `now`, or null when no event is coming. */
async function composeDigest(origin: string, now: Date, settings: SiteSettings): Promise<Digest | null> {
  const occurrences = await listUpcomingOccurrences({ from: now, limit: DIGEST_EVENTS, timeZone: settings.timeZone })
  if (occurrences.length === 0) return null
  const lines = occurrences.map((o) => ({
    when: formatOccurrenceWhen(o, settings.timeZone),
    title: o.title,
    location: o.location,
    link: `${origin}/calendar/${encodeURIComponent(o.slug)}?date=${o.date}`,
  }))
  const content: EmailContent = {
    subject: `Coming up at ${settings.organisationName}`,
    html:
      '<h1 style="font-size:24px;margin:0 0 12px">Coming up</h1><ul style="padding-left:20px">' +
      lines
        .map(
          (l) =>
            `<li style="margin-bottom:8px"><a href="${escapeMarkup(l.link)}" style="color:#1d4e89;font-weight:bold">${escapeMarkup(l.title)}</a><br>${escapeMarkup(l.when)}${l.location ? ` · ${escapeMarkup(l.location)}` : ''}</li>`,
        )
        .join('') +
      `</ul><p><a href="${escapeMarkup(`${origin}/calendar`)}" style="color:#1d4e89">The whole calendar</a></p>`,
    text: [
      'Coming up',
      '',
      ...lines.map((l) => `- ${l.title}: ${l.when}${l.location ? `, ${l.location}` : ''}\n  ${l.link}`),
    ].join('\n'),
  }
  return { batchId: digestBatchId(now, settings.timeZone), organisationName: settings.organisationName, origin, content }
}

/**
 * E-mails the upcoming events to the subscribers of Events: once a month at most (a second press
 * in the same month queues nobody twice). Returns the batch, or null when no event is coming.
 */
export async function sendEventsDigest(origin: string, now = new Date()): Promise<{ batchId: string; queued: number } | null> {
  const digest = await composeDigest(origin, now, await getSiteSettings())
  if (!digest) return null
  const queued = await db.transaction().execute((trx) => queueToSubscribers(trx, 'events', digest))
  sendQueuedEmailsSoon()
  return { batchId: digest.batchId, queued }
}

/** The row of the `settings` table that holds the schedule. */
const SCHEDULE_KEY = 'events-digest'

const ScheduleSchema = z.object({
  /** The day of the month it goes out by itself; null: only by the button. */
  day: z.number().int().min(1).max(LAST_DIGEST_DAY).nullable(),
  /** The last month ('2026-11') whose digest went out by itself. */
  doneMonth: z.string().nullable(),
  /** When the day was chosen ('2026-11-20'): a day already past then waits for the next month. */
  chosenOn: z.string().nullable().default(null),
})
type Schedule = z.infer<typeof ScheduleSchema>

const NO_SCHEDULE: Schedule = { day: null, doneMonth: null, chosenOn: null }

/** The schedule and its stored text, which a change must still find to take its turn. */
async function readSchedule(): Promise<{ schedule: Schedule; stored: string | null }> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', SCHEDULE_KEY).executeTakeFirst()
  if (!row) return { schedule: NO_SCHEDULE, stored: null }
  let parsed: unknown
  try {
    parsed = JSON.parse(row.value)
  } catch {
    parsed = null
  }
  const result = ScheduleSchema.safeParse(parsed)
  return { schedule: result.success ? result.data : NO_SCHEDULE, stored: row.value }
}

/**
 * Writes the schedule if the stored text is still `stored`: of two processes that read the same
 * schedule, only one changes it. True when this one did.
 */
async function replaceSchedule(executor: Db, stored: string | null, schedule: Schedule): Promise<boolean> {
  const [value, updatedAt] = [JSON.stringify(schedule), nowIso()]
  if (stored === null) {
    const inserted = await executor
      .insertInto('settings')
      .values({ key: SCHEDULE_KEY, value, updatedAt })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst()
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1
  }
  const updated = await executor
    .updateTable('settings')
    .set({ value, updatedAt })
    .where('key', '=', SCHEDULE_KEY)
    .where('value', '=', stored)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1
}

/** Whether this month's digest is still to go out by itself, as of `today`: on or after its day. */
function dueThisMonth(schedule: Schedule & { day: number }, today: string): 'done' | 'waiting' | 'due' {
  const month = monthOf(today)
  const chosenAfterItsDay =
    schedule.chosenOn !== null && monthOf(schedule.chosenOn) === month && dayOf(schedule.chosenOn) > schedule.day
  if (schedule.doneMonth === month || chosenAfterItsDay) return 'done'
  return dayOf(today) < schedule.day ? 'waiting' : 'due'
}

/** The day of the month it goes out by itself, or null, and the date it will next ('2026-12-01'). */
export async function getDigestSchedule(now = new Date()): Promise<{ day: number | null; next: string | null }> {
  const [{ schedule }, { timeZone }] = await Promise.all([readSchedule(), getSiteSettings()])
  if (schedule.day === null) return { day: null, next: null }
  const today = todayIn(timeZone, now)
  const [year, month] = monthOf(today).split('-').map(Number)
  const turn = dueThisMonth({ ...schedule, day: schedule.day }, today)
  // Due and not out yet (the server was down on the day, or the queue was full): the next pass sends it.
  if (turn === 'due') return { day: schedule.day, next: today }
  const next = new Date(Date.UTC(year, turn === 'done' ? month : month - 1, schedule.day))
  return { day: schedule.day, next: next.toISOString().slice(0, 10) }
}

/**
 * Sets the day of the month the digest goes out by itself (null: only by the button). A day
 * already past this month waits for next month: choosing it does not send anything today.
 * Returns the day it replaced.
 */
export async function setDigestDay(day: number | null, now = new Date()): Promise<number | null> {
  const { timeZone } = await getSiteSettings()
  const chosenOn = todayIn(timeZone, now)
  // Another process may mark a month done meanwhile: read again and keep what it wrote.
  for (let attempt = 0; attempt < 5; attempt++) {
    const { schedule, stored } = await readSchedule()
    if (await replaceSchedule(db, stored, { ...schedule, day, chosenOn })) return schedule.day
  }
  throw new Error('the events digest schedule kept changing while it was being set')
}

/** After the queue refused a digest (too many e-mails waiting), this process waits this long before trying again. */
const QUOTA_BACKOFF_MS = 15 * 60_000
let refusedUntil = 0

/**
 * The digest of the month, queued by itself once its day has come (in the site's time zone):
 * once a month, by whichever process comes first, in the same transaction that marks the month
 * done, so a process killed midway leaves it to the next pass. A month without coming events is
 * marked done with nothing sent. Returns how many were queued, or null when it was not its turn.
 * Its links name PUBLIC_URL (there is no request to take an address from).
 */
export async function sendScheduledDigest(now = new Date()): Promise<number | null> {
  const { schedule, stored } = await readSchedule()
  if (schedule.day === null) return null
  if (now.getTime() < refusedUntil) return null
  const settings = await getSiteSettings()
  const today = todayIn(settings.timeZone, now)
  if (dueThisMonth({ ...schedule, day: schedule.day }, today) !== 'due') return null
  const digest = await composeDigest(backgroundOrigin(), now, settings)
  try {
    const queued = await db.transaction().execute(async (trx) => {
      if (!(await replaceSchedule(trx, stored, { ...schedule, doneMonth: monthOf(today) }))) return null
      return digest ? queueToSubscribers(trx, 'events', digest) : 0
    })
    if (queued === null || !digest) return queued
    sendQueuedEmailsSoon()
    await recordAuditEvent({ by: BY_THE_SITE, action: 'digest.sent', detail: { queued, scheduled: true } })
    return queued
  } catch (error) {
    // Nothing was queued or marked: a later pass tries again, once the queue may have room.
    if (!(error instanceof OutgoingMailQuotaError)) throw error
    refusedUntil = now.getTime() + QUOTA_BACKOFF_MS
    logger.warn('events digest not e-mailed yet: too many e-mails waiting')
    return null
  }
}
