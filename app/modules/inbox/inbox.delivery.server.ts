import crypto from 'node:crypto'
import type { ExpressionBuilder } from 'kysely'
import { getSiteSender, getSiteSettings } from '~/modules/settings/settings.queries.server'
import { db } from '~/platform/db.server'
import type { ContactDeliveryTable, ContactMessageTable, Database } from '~/platform/db-schema'
import { env } from '~/platform/env.server'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import { headerSafe, SMTP_TIMEOUTS, sendEmail } from '~/platform/email.server'
import { logger } from '~/platform/logger.server'
import { CONTACT_SUBJECT_LABELS, type ContactSubject } from './contact.schema'

export const DELIVERY_POLICY = {
  /** After this many failed attempts a delivery stays failed until an admin retries it. */
  maxAttempts: 10,
  firstRetryMs: 60_000,
  maxRetryMs: 6 * 60 * 60_000,
  batchSize: 20,
  timerMs: 60_000,
  forwardTimeoutMs: 15_000,
  /** Connecting to the mail server and its greeting (see SMTP_TIMEOUTS). */
  smtpConnectTimeoutMs: SMTP_TIMEOUTS.connectMs,
  /** Silence allowed while waiting for any reply (see SMTP_TIMEOUTS). */
  smtpReplyTimeoutMs: SMTP_TIMEOUTS.replyMs,
  /** A whole e-mail send is abandoned after this (and retried later), however the server trickles. */
  sendTimeoutMs: 15 * 60_000,
  /**
   * How long a claim holds, counted from the claim itself. Longer than any send may take (see
   * `sendTimeoutMs` and `forwardTimeoutMs`), so no other process takes over a send that is still
   * running; after a crash the delivery is due again.
   */
  leaseMs: 20 * 60_000,
}

type Message = Pick<ContactMessageTable, 'id' | 'name' | 'email' | 'phone' | 'subject' | 'message' | 'createdAt'>

export interface DeliveryRunSummary {
  sent: number
  failed: number
  /** The pass took a full batch, so more deliveries may be due right now. */
  more: boolean
}

export function retryDelayMs(attempts: number): number {
  return Math.min(DELIVERY_POLICY.firstRetryMs * 2 ** Math.max(0, attempts - 1), DELIVERY_POLICY.maxRetryMs)
}

/** Due: waiting and its time has come, or claimed by a sender whose lease ran out (it crashed or hung). */
function isDue(now: string) {
  return (eb: ExpressionBuilder<Database, 'contactDeliveries'>) =>
    eb.or([
      eb.and([eb('status', 'in', ['pending', 'failed']), eb('nextAttemptAt', '<=', now)]),
      eb.and([eb('status', '=', 'sending'), eb('leaseExpiresAt', '<=', now)]),
    ])
}

/**
 * One pass over the due deliveries. Each one is claimed with a conditional UPDATE that only one
 * process can win, so concurrent workers (several app processes, or the timer racing a fresh
 * message) never send the same delivery twice. Channels run side by side, so a hanging form
 * service does not hold up the e-mails.
 */
export async function deliverDueMessages(options: { now?: Date; signal?: AbortSignal } = {}): Promise<DeliveryRunSummary> {
  const now = options.now ?? new Date()
  // The pass's own clock: each claim's lease runs from the claim, not from the start of a long pass.
  const startedAt = Date.now()
  const clock = () => new Date(now.getTime() + Date.now() - startedAt)
  const candidates = await db
    .selectFrom('contactDeliveries')
    .select(['id', 'channel'])
    .where(isDue(now.toISOString()))
    .orderBy('nextAttemptAt')
    .limit(DELIVERY_POLICY.batchSize)
    .execute()
  const summary: DeliveryRunSummary = { sent: 0, failed: 0, more: candidates.length === DELIVERY_POLICY.batchSize }

  const channels = [...new Set(candidates.map((c) => c.channel))]
  await Promise.all(
    channels.map(async (channel) => {
      for (const { id } of candidates.filter((c) => c.channel === channel)) {
        if (options.signal?.aborted) return
        const outcome = await deliverOne(id, clock, options.signal)
        if (outcome !== 'skipped') summary[outcome]++
      }
    }),
  )
  return summary
}

async function deliverOne(id: string, clock: () => Date, signal?: AbortSignal): Promise<'sent' | 'failed' | 'skipped'> {
  const now = clock()
  const nowText = now.toISOString()
  const leaseToken = crypto.randomUUID()
  const claimed = await db
    .updateTable('contactDeliveries')
    .set({
      status: 'sending',
      leaseToken,
      leaseExpiresAt: new Date(now.getTime() + DELIVERY_POLICY.leaseMs).toISOString(),
      attempts: (eb) => eb('attempts', '+', 1),
      updatedAt: nowText,
    })
    .where('id', '=', id)
    .where(isDue(nowText))
    .returning(['channel', 'attempts', 'messageId'])
    .executeTakeFirst()
  if (!claimed) return 'skipped' // another worker got there first

  const message = await db
    .selectFrom('contactMessages')
    .select(['id', 'name', 'email', 'phone', 'subject', 'message', 'createdAt'])
    .where('id', '=', claimed.messageId)
    .executeTakeFirst()
  if (!message) return 'skipped' // deleted meanwhile; its deliveries went with it

  try {
    await send(claimed.channel, message, signal)
    await finishDelivery(id, leaseToken, { status: 'sent', deliveredAt: new Date().toISOString(), lastError: null, nextAttemptAt: null })
    return 'sent'
  } catch (error) {
    const reason = describeError(error)
    const giveUp = claimed.attempts >= DELIVERY_POLICY.maxAttempts
    const nextAttemptAt = giveUp ? null : new Date(clock().getTime() + retryDelayMs(claimed.attempts)).toISOString()
    await finishDelivery(id, leaseToken, { status: 'failed', lastError: reason, nextAttemptAt })
    logger.warn(
      { messageId: message.id, channel: claimed.channel, attempts: claimed.attempts, nextAttemptAt, err: reason },
      'contact message delivery failed',
    )
    return 'failed'
  }
}

/** Records the outcome, only if this sender still holds the claim. */
async function finishDelivery(
  id: string,
  leaseToken: string,
  outcome: Pick<ContactDeliveryTable, 'status' | 'lastError' | 'nextAttemptAt'> & { deliveredAt?: string },
): Promise<void> {
  await db
    .updateTable('contactDeliveries')
    .set({ ...outcome, leaseToken: null, leaseExpiresAt: null, updatedAt: new Date().toISOString() })
    .where('id', '=', id)
    .where('leaseToken', '=', leaseToken)
    .where('status', '=', 'sending')
    .execute()
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, ' ').slice(0, 500)
}

async function send(channel: ContactDeliveryTable['channel'], message: Message, shutdown?: AbortSignal): Promise<void> {
  // An e-mail in flight is left to finish on shutdown: cut off after its data, it could arrive twice.
  if (channel === 'email') return sendContactEmail(message, AbortSignal.timeout(DELIVERY_POLICY.sendTimeoutMs))
  const timeout = AbortSignal.timeout(DELIVERY_POLICY.forwardTimeoutMs)
  return forwardMessage(message, shutdown ? AbortSignal.any([timeout, shutdown]) : timeout)
}

function subjectLabel(subject: string): string {
  return CONTACT_SUBJECT_LABELS[subject as ContactSubject] ?? subject
}

async function sendContactEmail(message: Message, signal: AbortSignal): Promise<void> {
  const [settings, from] = await Promise.all([getSiteSettings(), getSiteSender()])
  if (!settings.email || !from) throw new Error('The site settings have no e-mail address to deliver to')
  const name = headerSafe(message.name)
  const siteHost = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : 'localhost'
  await sendEmail(
    {
      from,
      to: settings.email,
      // Address objects keep the visitor's name and address out of the raw header text.
      replyTo: { name, address: headerSafe(message.email) },
      subject: headerSafe(`Contact form: ${subjectLabel(message.subject)} from ${name}`),
      // A stable Message-ID lets mail servers drop a copy resent after a crash mid-delivery.
      messageId: `<contact-${message.id}@${siteHost}>`,
      text: emailBody(message),
      signal,
    },
    { connectMs: DELIVERY_POLICY.smtpConnectTimeoutMs, replyMs: DELIVERY_POLICY.smtpReplyTimeoutMs },
  )
}

function emailBody(message: Message): string {
  const lines = [
    `Name: ${headerSafe(message.name)}`,
    `E-mail: ${headerSafe(message.email)}`,
    `Phone: ${message.phone ? headerSafe(message.phone) : '-'}`,
    `Subject: ${subjectLabel(message.subject)}`,
    `Received: ${message.createdAt}`,
    '',
    message.message,
    '',
    '--',
    'Sent from the contact form. Reply to this e-mail to answer the sender.',
  ]
  if (env.PUBLIC_URL) lines.push(`Inbox: ${new URL(`/admin/messages/${message.id}`, env.PUBLIC_URL).href}`)
  return lines.join('\n')
}

/** POSTs the message as JSON, as the old site did with its form service. */
async function forwardMessage(message: Message, signal: AbortSignal): Promise<void> {
  if (!env.CONTACT_FORWARD_URL) throw new Error('CONTACT_FORWARD_URL is not set')
  const response = await fetch(env.CONTACT_FORWARD_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      name: message.name,
      email: message.email,
      phone: message.phone ?? '',
      subject: message.subject,
      message: message.message,
    }),
    signal,
  })
  if (response.ok) return
  const body = await response.text().catch(() => '')
  let detail = body.slice(0, 200)
  try {
    const parsed = JSON.parse(body) as { error?: unknown }
    if (typeof parsed.error === 'string') detail = parsed.error
  } catch {
    // not JSON: keep the text
  }
  throw new Error(`Forwarding answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`)
}

/**
 * Delivers due messages in the background: right after a message arrives, and periodically for
 * retries; started with the server. Stopping cuts the current pass short (a forward in flight is
 * aborted); a send that is still going then is left to its lease and retried later.
 */
const deliveryWorker = createBackgroundWorker({
  name: 'contact delivery',
  // A burst larger than one batch goes out now, not one batch per timer tick.
  pass: deliverDueMessages,
  intervalMs: DELIVERY_POLICY.timerMs,
})

export const requestDeliveryRun = deliveryWorker.request
export const deliveryIdle = deliveryWorker.idle
export const startDeliveryTimer = deliveryWorker.start
export const stopDeliveryWorker = deliveryWorker.stop
