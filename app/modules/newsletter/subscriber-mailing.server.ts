import { composeEmail, subscriberLinks, type EmailContent } from './newsletter.emails.server'
import type { Topic } from './newsletter.schema'
import { queueEmails } from '~/modules/outgoing-mail/outgoing-mail.server'
import type { Db } from '~/platform/db.server'
import { env } from '~/platform/env.server'

/** What every mailing to the subscribers of a topic shares: its recipients, its links, its queueing. */

/** The origin of links in mailings queued without a request (a scheduled article): PUBLIC_URL, which production sets. */
export function backgroundOrigin(): string {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : `http://localhost:${env.PORT}`
}

async function confirmedSubscribersOf(trx: Db, topic: Topic) {
  const rows = await trx
    .selectFrom('subscribers')
    .select(['id', 'email', 'topics', 'manageSecret'])
    .where('state', '=', 'confirmed')
    .execute()
  return rows.filter((row) => row.topics.split(',').includes(topic))
}

/**
 * Recipients composed and inserted at a time: each e-mail carries the whole article, so the
 * mailing is built chunk by chunk, never for every subscriber in one array.
 */
const MAILING_CHUNK = 500

/** Queues one e-mail per subscriber of `topic`, in `trx`; a refusal of the quota rolls back every chunk. */
export async function queueToSubscribers(
  trx: Db,
  topic: Topic,
  mailing: { batchId: string; organisationName: string; origin: string; content: EmailContent },
): Promise<number> {
  const subscribers = await confirmedSubscribersOf(trx, topic)
  let queued = 0
  for (let start = 0; start < subscribers.length; start += MAILING_CHUNK) {
    const chunk = subscribers.slice(start, start + MAILING_CHUNK).map((subscriber) => ({
      ...composeEmail(
        mailing.organisationName,
        subscriber.email,
        mailing.content,
        subscriberLinks(mailing.origin, subscriber.manageSecret),
      ),
      batchId: mailing.batchId,
      dedupeKey: `${mailing.batchId}:${subscriber.id}`,
    }))
    queued += await queueEmails(trx, chunk, { origin: 'admin' })
  }
  return queued
}
