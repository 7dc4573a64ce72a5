import crypto from 'node:crypto'
import { db, nowIso } from '~/platform/db.server'
import type { ContactDeliveryTable } from '~/platform/db-schema'
import { env } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { clientRateLimitKey } from '~/platform/client-address.server'
import { createRateLimiter } from '~/platform/rate-limit.server'
import { HONEYPOT_FIELD } from '~/platform/honeypot'
import type { ContactInput } from './contact.schema'
import { requestDeliveryRun } from './inbox.delivery.server'

export type DeliveryChannel = ContactDeliveryTable['channel']

export type ReceiveOutcome =
  | { outcome: 'stored'; messageId: string }
  /** Looks like success to the sender; nothing was stored. */
  | { outcome: 'discarded' }
  | { outcome: 'rate-limited'; retryAfterSeconds: number }

/** Generous enough for several people behind one shared mobile-network address. */
export const CONTACT_RATE_LIMIT = { attempts: 10, windowSeconds: 60 * 60 }
export const contactRateLimiter = createRateLimiter('contact-form', CONTACT_RATE_LIMIT)

/** The channels a new message goes out on, as the server is configured right now. */
export function configuredChannels(): DeliveryChannel[] {
  const channels: DeliveryChannel[] = []
  if (env.SMTP_URL) channels.push('email')
  if (env.CONTACT_FORWARD_URL) channels.push('forward')
  return channels
}

/**
 * Takes a validated message from the contact form: drops honeypot hits, enforces the per-client
 * limit, then stores the message with its pending deliveries before anything is sent.
 */
export async function receiveContactMessage(input: ContactInput, options: { clientKey: string }): Promise<ReceiveOutcome> {
  if (input[HONEYPOT_FIELD]) {
    logger.info({ client: options.clientKey }, 'contact form honeypot filled; message discarded')
    return { outcome: 'discarded' }
  }
  const verdict = await contactRateLimiter.hit(clientRateLimitKey(options.clientKey))
  if (verdict.limited) {
    logger.warn({ client: options.clientKey }, 'contact form rate limit reached; message refused')
    return { outcome: 'rate-limited', retryAfterSeconds: verdict.retryAfterSeconds }
  }
  const messageId = await storeContactMessage(input)
  requestDeliveryRun()
  return { outcome: 'stored', messageId }
}

/** Stores the message and one pending delivery per channel in a single transaction. */
export async function storeContactMessage(
  input: ContactInput,
  channels: DeliveryChannel[] = configuredChannels(),
): Promise<string> {
  const id = crypto.randomUUID()
  const now = nowIso()
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('contactMessages')
      .values({
        id,
        name: input.name,
        email: input.email,
        phone: input.phone ?? null,
        subject: input.subject,
        message: input.message,
        createdAt: now,
        readAt: null,
        handledAt: null,
      })
      .execute()
    if (channels.length === 0) return
    await trx
      .insertInto('contactDeliveries')
      .values(
        channels.map((channel) => ({
          id: crypto.randomUUID(),
          messageId: id,
          channel,
          status: 'pending' as const,
          attempts: 0,
          nextAttemptAt: now,
          leaseToken: null,
          leaseExpiresAt: null,
          lastError: null,
          deliveredAt: null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute()
  })
  return id
}

/** Opening a message marks it read (once; the first time counts). */
export async function markContactMessageRead(id: string): Promise<void> {
  await db.updateTable('contactMessages').set({ readAt: nowIso() }).where('id', '=', id).where('readAt', 'is', null).execute()
}

export async function setContactMessageHandled(id: string, handled: boolean): Promise<boolean> {
  const result = await db
    .updateTable('contactMessages')
    .set({ handledAt: handled ? nowIso() : null })
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Deletes the message; its deliveries go with it (cascade), so nothing is sent afterwards. */
export async function deleteContactMessage(id: string): Promise<boolean> {
  const result = await db.deleteFrom('contactMessages').where('id', '=', id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** Puts deliveries that gave up back in the queue, with a fresh set of attempts. */
export async function retryFailedDeliveries(messageId: string): Promise<number> {
  const now = nowIso()
  const result = await db
    .updateTable('contactDeliveries')
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where('messageId', '=', messageId)
    .where('status', '=', 'failed')
    .executeTakeFirst()
  const count = Number(result.numUpdatedRows)
  if (count > 0) requestDeliveryRun()
  return count
}
