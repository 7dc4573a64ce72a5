import crypto from 'node:crypto'
import type { Db } from '~/platform/db.server'
import { db, nowIso } from '~/platform/db.server'
import { env } from '~/platform/env.server'

/**
 * The site's outgoing mail to people (newsletters, confirmations, reminders): one row per
 * recipient, queued inside the caller's transaction and sent by a paced background worker
 * (outgoing-mail.delivery.server.ts; docs/decisions/035-outgoing-mail-and-newsletters.md).
 */

export interface EmailAttachment {
  filename: string
  contentType: string
  /** The file's text (an .ics is text). */
  content: string
}

export interface OutgoingEmail {
  to: string
  subject: string
  html: string
  text: string
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>
  attachments?: EmailAttachment[]
  /** Groups the e-mails of one mailing, for `batchProgress`. */
  batchId?: string
  /** At most one e-mail is ever queued per key (e.g. `article:<id>:<subscriberId>`); a second one is ignored. */
  dedupeKey?: string
}

export interface BatchProgress {
  sent: number
  /** Not sent yet, including the one being handed to the mail server. */
  waiting: number
  failed: number
}

export const OUTGOING_MAIL_MESSAGES = {
  queueFull: 'Too many e-mails are waiting to be sent. Please try again once the current sending has finished.',
}

/** A quota of waiting e-mails would be passed; nothing of the refused call is queued. */
export class OutgoingMailQuotaError extends Error {
  constructor() {
    super(OUTGOING_MAIL_MESSAGES.queueFull)
  }
}

/** The same address however it was typed: addresses are kept and compared in lower case. */
export function normaliseAddress(address: string): string {
  return address.trim().toLowerCase()
}

/**
 * Who caused an e-mail: `admin`, an administrator's action (mailings, invitations they send);
 * `visitor`, anyone on the public site (confirmations, sign-up notices). Visitor mail has its own
 * small quota, so a flood of forms can never take the room of the administrators' mailings.
 */
export type EmailOrigin = 'visitor' | 'admin'

/** Waiting visitor mail at most: a tenth of OUTGOING_EMAILS_MAX_WAITING (admin mail has the whole of it). */
export function visitorEmailsMaxWaiting(): number {
  return Math.ceil(env.OUTGOING_EMAILS_MAX_WAITING / 10)
}

/** Rows inserted per statement: well under SQLite's and PostgreSQL's limits on bound values. */
const INSERT_CHUNK = 50

/**
 * Queues e-mails in the caller's transaction (they go out once it commits; call `sendQueuedEmailsSoon`
 * after it). An e-mail whose `dedupeKey` was queued before is skipped. Returns how many were queued.
 * `origin` defaults to `visitor`: pass `{ origin: 'admin' }` only for mail an administrator's action sends.
 * Throws OutgoingMailQuotaError, queuing nothing, if the waiting e-mails of that origin would exceed
 * their quota (OUTGOING_EMAILS_MAX_WAITING for admin mail, `visitorEmailsMaxWaiting()` for visitor mail).
 */
export async function queueEmails(
  trx: Db,
  emails: OutgoingEmail[],
  { origin = 'visitor' }: { origin?: EmailOrigin } = {},
): Promise<number> {
  if (emails.length === 0) return 0
  const { waiting } = await trx
    .selectFrom('outgoingEmails')
    .select((eb) => eb.fn.countAll<number>().as('waiting'))
    .where('status', 'in', ['waiting', 'sending'])
    .where('origin', '=', origin)
    .executeTakeFirstOrThrow()
  const quota = origin === 'admin' ? env.OUTGOING_EMAILS_MAX_WAITING : visitorEmailsMaxWaiting()
  if (Number(waiting) + emails.length > quota) throw new OutgoingMailQuotaError()
  const now = nowIso()
  let queued = 0
  for (let start = 0; start < emails.length; start += INSERT_CHUNK) {
    const rows = emails.slice(start, start + INSERT_CHUNK).map((email) => ({
      id: crypto.randomUUID(),
      toAddress: normaliseAddress(email.to),
      subject: email.subject,
      html: email.html,
      textBody: email.text,
      headers: email.headers ? JSON.stringify(email.headers) : null,
      attachments: email.attachments?.length ? JSON.stringify(email.attachments) : null,
      batchId: email.batchId ?? null,
      dedupeKey: email.dedupeKey ?? null,
      origin,
      status: 'waiting' as const,
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    }))
    const result = await trx
      .insertInto('outgoingEmails')
      .values(rows)
      .onConflict((oc) => oc.column('dedupeKey').doNothing())
      .executeTakeFirst()
    queued += Number(result.numInsertedOrUpdatedRows ?? 0)
  }
  return queued
}

/** How far a mailing has got. */
export async function batchProgress(batchId: string, executor: Db = db): Promise<BatchProgress> {
  const rows = await executor
    .selectFrom('outgoingEmails')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('batchId', '=', batchId)
    .groupBy('status')
    .execute()
  const progress: BatchProgress = { sent: 0, waiting: 0, failed: 0 }
  for (const { status, count } of rows) {
    const key = status === 'sending' ? 'waiting' : status
    progress[key] += Number(count)
  }
  return progress
}

/** Sent and failed e-mails are deleted after this: they hold addresses and confirmation links. */
export const KEEP_FINISHED_EMAILS_DAYS = 30

/** Deletes the sent and failed e-mails last changed more than KEEP_FINISHED_EMAILS_DAYS ago. */
export async function deleteOldFinishedEmails(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - KEEP_FINISHED_EMAILS_DAYS * 86_400_000).toISOString()
  const result = await db
    .deleteFrom('outgoingEmails')
    .where('status', 'in', ['sent', 'failed'])
    .where('updatedAt', '<', cutoff)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Removes every e-mail to this address, sent or not: part of deleting a person for good. */
export async function removeEmailsTo(trx: Db, address: string): Promise<void> {
  await trx.deleteFrom('outgoingEmails').where('toAddress', '=', normaliseAddress(address)).execute()
}
