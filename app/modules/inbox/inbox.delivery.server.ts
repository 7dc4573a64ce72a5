import { getSiteSender, getSiteSettings } from '~/modules/settings/settings.queries.server'
import { formatDate } from '~/platform/dates'
import { db } from '~/platform/db.server'
import type { ContactDeliveryTable, ContactMessageTable } from '~/platform/db-schema'
import { env } from '~/platform/env.server'
import { headerSafe, SMTP_TIMEOUTS, sendEmail, siteMessageId } from '~/platform/email.server'
import { createLeasedQueue, describeError, retryDelayMs as queueRetryDelayMs, type Lease } from '~/platform/leased-queue.server'
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
  return queueRetryDelayMs(DELIVERY_POLICY, attempts)
}

/**
 * The outbox: a delivery is waiting until it is sent or given up (see decision 006). A sender
 * that crashed leaves its lease to run out, even on this machine: it may have handed the e-mail
 * to the mail server already, and taking over at once would only send it again sooner.
 */
const deliveries = createLeasedQueue({
  name: 'contact delivery',
  table: 'contactDeliveries',
  policy: DELIVERY_POLICY,
  isWaiting: (eb) => eb('status', 'in', ['pending', 'failed', 'sending']),
  claimed: { status: 'sending' },
  // Channels run side by side, so a hanging form service does not hold up the e-mails.
  laneOf: (delivery) => delivery.channel,
  work: deliver,
  failed: (error) => ({ status: 'failed', lastError: describeError(error) }),
  takeOverLeasesOfGoneProcesses: false,
})

/**
 * One pass over the due deliveries; concurrent workers (several app processes, or the timer
 * racing a fresh message) never send the same delivery twice.
 */
export async function deliverDueMessages(options: { now?: Date; signal?: AbortSignal } = {}): Promise<DeliveryRunSummary> {
  const { finished, retried, gaveUp, more } = await deliveries.runDue(options)
  return { sent: finished, failed: retried + gaveUp, more }
}

async function deliver(delivery: ContactDeliveryTable, lease: Lease<'contactDeliveries'>, signal?: AbortSignal): Promise<void> {
  const message = await db
    .selectFrom('contactMessages')
    .select(['id', 'name', 'email', 'phone', 'subject', 'message', 'createdAt'])
    .where('id', '=', delivery.messageId)
    .executeTakeFirst()
  if (!message) return // deleted meanwhile; its deliveries went with it
  await send(delivery.channel, message, signal)
  await lease.finish(db, { status: 'sent', deliveredAt: new Date().toISOString(), lastError: null })
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
  await sendEmail(
    {
      from,
      to: settings.email,
      // Address objects keep the visitor's name and address out of the raw header text.
      replyTo: { name, address: headerSafe(message.email) },
      subject: headerSafe(`Contact form: ${subjectLabel(message.subject)} from ${name}`),
      // A stable Message-ID lets mail servers drop a copy resent after a crash mid-delivery.
      messageId: siteMessageId(`contact-${message.id}`),
      text: emailBody(message, settings.timeZone),
      signal,
    },
    { connectMs: DELIVERY_POLICY.smtpConnectTimeoutMs, replyMs: DELIVERY_POLICY.smtpReplyTimeoutMs },
  )
}

function emailBody(message: Message, timeZone: string): string {
  const lines = [
    `Name: ${headerSafe(message.name)}`,
    `E-mail: ${headerSafe(message.email)}`,
    `Phone: ${message.phone ? headerSafe(message.phone) : '-'}`,
    `Subject: ${subjectLabel(message.subject)}`,
    `Received: ${formatDate(message.createdAt, timeZone, 'dateTime')} (${timeZone} time)`,
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
 * aborted and given back); a send that is still going then is left to its lease and retried later.
 */
export const requestDeliveryRun = deliveries.request
export const deliveryIdle = deliveries.idle
export const startDeliveryTimer = deliveries.start
export const stopDeliveryWorker = deliveries.stop
