import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { sendQueuedEmailsSoon } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import { addDays, todayIn } from '~/platform/dates'
import { db } from '~/platform/db.server'
import { isPublicNow } from '~/platform/publication.server'
import { occurrenceOn } from './events.recurrence.server'
import { OutgoingMailQuotaError, queueEmails } from '~/modules/outgoing-mail/outgoing-mail.server'
import { logger } from '~/platform/logger.server'
import { emailSiteOf, readEventForEmails, signupEmail } from './signups.emails.server'

/** Reminders queued per pass; a full batch asks for another pass at once. */
const BATCH = 200

/**
 * Queues the reminder for everyone confirmed for a date that is tomorrow in the site's time zone.
 * Each is queued once: its dedupe key refuses a second copy (another process, a pass after a
 * restart), and the sign-up is marked, in the same transaction, so that later passes skip it.
 */
export async function queueDueReminders(now = new Date()): Promise<{ queued: number; more: boolean }> {
  const site = emailSiteOf(await getSiteSettings())
  const tomorrow = addDays(todayIn(site.timeZone, now), 1)
  const due = await db
    .selectFrom('eventSignups')
    .innerJoin('events', 'events.id', 'eventSignups.eventId')
    .select([
      'eventSignups.id',
      'eventSignups.eventId',
      'eventSignups.name',
      'eventSignups.email',
      'eventSignups.date',
      'eventSignups.cancelToken',
      'eventSignups.siteOrigin',
    ])
    .where('eventSignups.date', '=', tomorrow)
    .where('eventSignups.status', '=', 'confirmed')
    .where('eventSignups.email', 'is not', null)
    .where('eventSignups.reminderQueuedAt', 'is', null)
    .where(isPublicNow('events', now))
    .orderBy('eventSignups.id')
    .limit(BATCH)
    .execute()
  let queued = 0
  let refused = false
  for (const eventId of new Set(due.map((signup) => signup.eventId))) {
    const event = await readEventForEmails(db, eventId)
    const signups = due.filter((signup) => signup.eventId === eventId)
    // A date taken out of the series since: nobody is reminded of it.
    const takesPlace = event !== null && occurrenceOn(event, tomorrow, site.timeZone) !== null
    try {
      queued += await db.transaction().execute(async (trx): Promise<number> => {
        // Only the sign-ups still there and unmarked: one cancelled (or reminded by another pass) since the read gets nothing.
        const marked = await trx
          .updateTable('eventSignups')
          .set({ reminderQueuedAt: now.toISOString() })
          .where(
            'id',
            'in',
            signups.map((signup) => signup.id),
          )
          .where('reminderQueuedAt', 'is', null)
          .returning('id')
          .execute()
        if (!takesPlace || !event) return 0
        const ids = new Set(marked.map((row) => row.id))
        return queueEmails(
          trx,
          signups.flatMap((signup) => (ids.has(signup.id) && signupEmail('reminder', signup, event, site)) || []),
        )
      })
    } catch (error) {
      // A full queue undoes the marks with the transaction: the next pass tries again.
      if (!(error instanceof OutgoingMailQuotaError)) throw error
      logger.warn({ count: signups.length }, 'the outgoing mail queue is full; sign-up reminders wait for the next pass')
      refused = true
      break
    }
  }
  if (queued > 0) sendQueuedEmailsSoon()
  return { queued, more: !refused && due.length === BATCH }
}

const reminders = createBackgroundWorker({
  name: 'sign-up reminders',
  pass: () => queueDueReminders(),
  intervalMs: 10 * 60_000,
})

export const startSignupReminders = reminders.start
export const stopSignupReminders = reminders.stop
