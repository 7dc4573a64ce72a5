import { setTimeout as sleep } from 'node:timers/promises'
import { getSiteSender } from '~/modules/settings/settings.queries.server'
import { db, nowIso } from '~/platform/db.server'
import type { OutgoingEmailTable } from '~/platform/db-schema'
import { env } from '~/platform/env.server'
import { isPermanentSmtpFailure, SMTP_TIMEOUTS, sendEmail, siteMessageId } from '~/platform/email.server'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import { createLeasedQueue, describeError, type Lease } from '~/platform/leased-queue.server'
import { isLeaseOfGoneProcess } from '~/platform/lease-holder.server'
import { deleteOldFinishedEmails, type EmailAttachment } from './outgoing-mail.server'

export const OUTGOING_MAIL_POLICY = {
  /** Temporary failures (4xx, a server that is down) are tried this often, then the e-mail is failed. */
  maxAttempts: 8,
  firstRetryMs: 60_000,
  maxRetryMs: 6 * 60 * 60_000,
  batchSize: 20,
  timerMs: 30_000,
  /** A whole send is abandoned after this (and retried later), however slowly the server answers. */
  sendTimeoutMs: 15 * 60_000,
  /** Longer than the wait for a pacing slot plus any send, so nobody else takes over a send still running. */
  leaseMs: 20 * 60_000,
}

export const INTERRUPTED_SEND =
  'The server stopped while handing this e-mail to the mail server. It may have arrived, so it is not sent again.'

/**
 * Pacing: this process sends at most OUTGOING_EMAILS_PER_SECOND, one after another (one lane). The
 * next free moment is kept in memory; each e-mail waits for its slot after being claimed.
 */
let nextSlotAt = 0

async function waitForSlot(signal?: AbortSignal): Promise<void> {
  const now = Date.now()
  const slot = Math.max(now, nextSlotAt)
  nextSlotAt = slot + 1000 / env.OUTGOING_EMAILS_PER_SECOND
  if (slot > now) await sleep(slot - now, undefined, { signal })
}

/**
 * The queue. An e-mail is `waiting` while claimed and waiting for its slot: a process killed then
 * has sent nothing, and the restarted process takes the job over at once. Just before the mail
 * server is spoken to, the row becomes `sending` under the lease; a process killed from then until
 * `sent` is recorded may or may not have had the e-mail accepted, so such a row is never sent again
 * (at most once; `markInterruptedSends` fails it with a note).
 */
const outgoing = createLeasedQueue({
  name: 'outgoing e-mail',
  table: 'outgoingEmails',
  policy: OUTGOING_MAIL_POLICY,
  // A `sending` row without a lease was given back by a shutdown after a failed send: safe to try again.
  isWaiting: (eb) => eb.or([eb('status', '=', 'waiting'), eb.and([eb('status', '=', 'sending'), eb('leaseToken', 'is', null)])]),
  work: deliver,
  failed: (error, _email, giveUp) => ({ status: giveUp ? 'failed' : 'waiting', lastError: describeError(error) }),
  isHopeless: isPermanentSmtpFailure,
  takeOverLeasesOfGoneProcesses: true,
})

/**
 * Looks for interrupted sends at start (a killed process) and every minute (a lease run out on
 * another machine), and deletes the finished e-mails past their keeping time.
 */
const interruptedSendsSweeper = createBackgroundWorker({
  name: 'sweep of interrupted and old e-mail sends',
  pass: async () => {
    await markInterruptedSends()
    await deleteOldFinishedEmails()
    return { more: false }
  },
  intervalMs: 60_000,
})

async function deliver(email: OutgoingEmailTable, lease: Lease<'outgoingEmails'>, signal?: AbortSignal): Promise<void> {
  await waitForSlot(signal)
  const from = await getSiteSender()
  if (!from) throw new Error('Neither SMTP_FROM nor the site e-mail address is set')
  const handedOver = await db
    .updateTable('outgoingEmails')
    .set({ status: 'sending', updatedAt: nowIso() })
    .where('id', '=', email.id)
    .where('leaseToken', '=', email.leaseToken)
    .executeTakeFirst()
  if (Number(handedOver.numUpdatedRows) === 0) return // removed (the person was deleted) or taken over meanwhile
  // An e-mail in flight is left to finish on shutdown: cut off after its data, it could arrive twice.
  await sendEmail(
    {
      from,
      to: email.toAddress,
      subject: email.subject,
      html: email.html,
      text: email.textBody,
      headers: email.headers ? (JSON.parse(email.headers) as Record<string, string>) : undefined,
      attachments: email.attachments ? (JSON.parse(email.attachments) as EmailAttachment[]) : undefined,
      messageId: siteMessageId(`mail-${email.id}`),
      signal: AbortSignal.timeout(OUTGOING_MAIL_POLICY.sendTimeoutMs),
    },
    SMTP_TIMEOUTS,
  )
  await lease.finish(db, { status: 'sent', sentAt: nowIso(), lastError: null })
}

/**
 * Fails the e-mails whose sender stopped while handing them to the mail server (its process is
 * gone, or its lease ran out): they may have arrived, and sending them again could mail someone twice.
 */
export async function markInterruptedSends(now = new Date()): Promise<number> {
  const held = await db
    .selectFrom('outgoingEmails')
    .select(['id', 'leaseToken', 'leaseExpiresAt'])
    .where('status', '=', 'sending')
    .where('leaseToken', 'is not', null)
    .execute()
  const interrupted = held.filter(
    (row) => (row.leaseExpiresAt !== null && row.leaseExpiresAt <= now.toISOString()) || isLeaseOfGoneProcess(row.leaseToken!),
  )
  for (const row of interrupted) {
    await db
      .updateTable('outgoingEmails')
      .set({ status: 'failed', lastError: INTERRUPTED_SEND, leaseToken: null, leaseExpiresAt: null, updatedAt: nowIso() })
      .where('id', '=', row.id)
      .where('leaseToken', '=', row.leaseToken)
      .execute()
  }
  return interrupted.length
}

/** One pass over the due e-mails (tests; the worker runs them by itself). */
export const sendDueEmails = outgoing.runDue
/** Starts a pass soon, after e-mails were queued and their transaction committed. */
export const sendQueuedEmailsSoon = outgoing.request
export const outgoingMailIdle = outgoing.idle

/** Starts sending (with the server, when SMTP_URL is set: without it the e-mails wait). */
export function startOutgoingMailWorker(): void {
  interruptedSendsSweeper.start()
  outgoing.start()
}

export async function stopOutgoingMailWorker(): Promise<void> {
  await Promise.all([outgoing.stop(), interruptedSendsSweeper.stop()])
}
