import { sql } from 'kysely'
import crypto from 'node:crypto'
import {
  normaliseAddress,
  OutgoingMailQuotaError,
  queueEmails,
  removeEmailsTo,
} from '~/modules/outgoing-mail/outgoing-mail.server'
import { sendQueuedEmailsSoon } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import type { Db } from '~/platform/db.server'
import { db, nowIso } from '~/platform/db.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import type { SubscriberTable } from '~/platform/db-schema'
import { env } from '~/platform/env.server'
import { HONEYPOT_FIELD } from '~/platform/honeypot'
import { logger } from '~/platform/logger.server'
import { clientRateLimitKey } from '~/platform/client-address.server'
import { createRateLimiter } from '~/platform/rate-limit.server'
import { hashOfSecret, newSecretToken } from '~/platform/secret-tokens.server'
import { composeEmail, paragraphWithLink, subscriberLinks } from './newsletter.emails.server'
import { NEWSLETTER_MESSAGES, type AddSubscriberInput, type SubscribeInput, type Topic } from './newsletter.schema'

/** Generous enough for several people behind one shared mobile-network address (as the contact form). */
const SIGNUP_RATE_LIMIT = { attempts: 10, windowSeconds: 60 * 60 }
const signupRateLimiter = createRateLimiter('newsletter-signup', SIGNUP_RATE_LIMIT)
/** And a day's worth: one client cannot fill the invitations waiting, hour after hour, on its own. */
const signupsPerClientDay = createRateLimiter('newsletter-signup-day', { attempts: 30, windowSeconds: 24 * 60 * 60 })

/**
 * An invitation not confirmed within this time is removed: nothing was ever sent but the
 * invitation. Two days, not a week: made-up addresses that fill the invitations waiting leave soon.
 */
const INVITATION_DAYS = 2
/** At most one confirmation e-mail per address in this time, however often the form is sent. */
const CONFIRMATION_EVERY_MS = 60 * 60_000
/** And at most this many e-mails of one kind (confirmations, notes) to an address in a week: then silence. */
const INVITATIONS_PER_ADDRESS = 3
const MAIL_COUNTED_DAYS = 7

/** The dedupe keys of the e-mail updates' own mail (confirmations, notes, articles, digests), by prefix. */
const NEWSLETTER_MAIL_KEYS = ['confirm', 'already', 'article', 'digest']

/** A rule of the list refused the change; the message is for the person. */
export class SubscriberRuleError extends Error {}

export type SubscribeOutcome = { outcome: 'accepted' } | { outcome: 'rate-limited'; retryAfterSeconds: number }

/**
 * Invitations waiting at most for a confirmation: a tenth of SUBSCRIBERS_MAX (which counts only
 * confirmed subscribers), so a flood of made-up addresses cannot fill the list.
 */
export function pendingSubscribersMax(): number {
  return Math.max(1, Math.floor(env.SUBSCRIBERS_MAX / 10))
}

/** Of which at most a tenth for one domain: made-up addresses of one domain cannot fill them all. */
function pendingPerDomainMax(): number {
  return Math.max(1, Math.floor(pendingSubscribersMax() / 10))
}

/** Invitations sent before this have expired. */
function pendingCutoff(now = Date.now()): string {
  return new Date(now - INVITATION_DAYS * 86_400_000).toISOString()
}

function hourBucket(now = Date.now()): number {
  return Math.floor(now / CONFIRMATION_EVERY_MS)
}

/**
 * The public form. Answers the same whatever the address's state (the route shows one text): a new,
 * invited or unsubscribed address gets a confirmation link, a subscribed one a link to its topics;
 * at most one such e-mail per address an hour. Nothing else is ever sent before the confirmation.
 * A full list (or mail queue) gets the same answer too, with nothing stored or queued: a different
 * one would tell whether an address is known.
 */
export async function subscribe(
  input: SubscribeInput,
  options: { clientKey: string; origin: string },
): Promise<SubscribeOutcome> {
  if (input[HONEYPOT_FIELD]) return { outcome: 'accepted' }
  const clientKey = clientRateLimitKey(options.clientKey)
  const verdicts = await Promise.all([signupRateLimiter.hit(clientKey), signupsPerClientDay.hit(clientKey)])
  const limited = verdicts.filter((v) => v.limited)
  if (limited.length > 0)
    return { outcome: 'rate-limited', retryAfterSeconds: Math.max(...limited.map((v) => v.retryAfterSeconds)) }
  try {
    const site = await siteOf(options.origin)
    await db.transaction().execute((trx) => inviteInTransaction(trx, input, site))
  } catch (error) {
    if (!(error instanceof SubscriberRuleError || error instanceof OutgoingMailQuotaError)) throw error
    logger.warn('a sign-up was not taken: the list or the mail queue is full')
  }
  sendQueuedEmailsSoon()
  return { outcome: 'accepted' }
}

/** An administrator adds someone: they are invited to confirm, like a visitor of the form. */
export async function inviteSubscriber(input: AddSubscriberInput, origin: string): Promise<'invited' | 'already-listed'> {
  const site = await siteOf(origin)
  const outcome = await db.transaction().execute((trx) => inviteInTransaction(trx, input, site, { byAdmin: true }))
  sendQueuedEmailsSoon()
  return outcome
}

/** Adds the people of an imported list, each invited to confirm; those listed already are left as they are. */
export async function importSubscribers(
  people: AddSubscriberInput[],
  origin: string,
): Promise<{ invited: number; skipped: number }> {
  const counts = { invited: 0, skipped: 0 }
  const site = await siteOf(origin)
  await db.transaction().execute(async (trx) => {
    for (const person of people) {
      const outcome = await inviteInTransaction(trx, person, site, { byAdmin: true })
      counts[outcome === 'invited' ? 'invited' : 'skipped']++
    }
  })
  sendQueuedEmailsSoon()
  return counts
}

/** What the e-mails of a transaction need to know of the site, read before it starts. */
interface SiteForEmails {
  origin: string
  name: string
}

async function siteOf(origin: string): Promise<SiteForEmails> {
  return { origin, name: (await getSiteSettings()).organisationName }
}

/** Invitations waiting for addresses of the same domain (at most pendingSubscribersMax rows are read). */
async function pendingOfDomain(trx: Db, email: string): Promise<number> {
  const domain = email.slice(email.lastIndexOf('@'))
  const row = await trx
    .selectFrom('subscribers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('state', '=', 'pending')
    .where(sql<string>`substr(email, length(email) - ${domain.length - 1})`, '=', domain)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

async function inviteInTransaction(
  trx: Db,
  input: Pick<SubscribeInput, 'email' | 'firstName' | 'topics'>,
  site: SiteForEmails,
  { byAdmin = false } = {},
): Promise<'invited' | 'already-listed'> {
  const email = normaliseAddress(input.email)
  const now = nowIso()
  await trx.deleteFrom('subscribers').where('state', '=', 'pending').where('pendingSince', '<', pendingCutoff()).execute()
  const existing = await trx.selectFrom('subscribers').selectAll().where('email', '=', email).executeTakeFirst()
  if (existing && (byAdmin || existing.state === 'confirmed')) {
    if (!byAdmin) await queueAlreadySubscribedNote(trx, existing, site)
    return 'already-listed'
  }
  if (existing?.state !== 'pending') {
    const counts = await countsByState(trx)
    const full = byAdmin
      ? counts.confirmed + counts.pending >= env.SUBSCRIBERS_MAX
      : counts.confirmed >= env.SUBSCRIBERS_MAX ||
        counts.pending >= pendingSubscribersMax() ||
        (await pendingOfDomain(trx, email)) >= pendingPerDomainMax()
    if (full) throw new SubscriberRuleError(NEWSLETTER_MESSAGES.tooManySubscribers)
  }
  const id = existing?.id ?? crypto.randomUUID()
  const dedupeKey = `confirm:${id}:${hourBucket()}`
  if (await isQueued(trx, dedupeKey)) return 'invited' // the link sent within the hour still works
  if (await sentTooOften(trx, email, 'confirm')) return 'invited' // the form answers the same; nothing is sent
  const secret = newSecretToken()
  const row = {
    firstName: input.firstName,
    topics: input.topics.join(','),
    state: 'pending' as const,
    confirmSecretHash: hashOfSecret(secret),
    pendingSince: now,
    updatedAt: now,
  }
  if (existing) await trx.updateTable('subscribers').set(row).where('id', '=', id).execute()
  else {
    const inserted = await trx
      .insertInto('subscribers')
      .values({ ...row, id, email, manageSecret: newSecretToken(), createdAt: now, confirmedAt: null, unsubscribedAt: null })
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst()
    // The same address sent at the same moment by another request, which invites it.
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return byAdmin ? 'already-listed' : 'invited'
  }
  // No first name: whoever fills the form could otherwise put their own words in our e-mail to anyone.
  const body = paragraphWithLink(
    `Hello, please confirm that you would like e-mail updates from us. Until you do, we send you nothing else.`,
    'Confirm my subscription',
    `${site.origin}/subscribe/confirm/${secret}`,
  )
  const message = composeEmail(site.name, email, { subject: 'Please confirm your subscription', ...body }, null)
  await queueEmails(trx, [{ ...message, dedupeKey }], { origin: byAdmin ? 'admin' : 'visitor' })
  return 'invited'
}

async function countsByState(trx: Db): Promise<Record<SubscriberTable['state'], number>> {
  const rows = await trx
    .selectFrom('subscribers')
    .select(['state', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('state')
    .execute()
  const counts = { pending: 0, confirmed: 0, unsubscribed: 0 }
  for (const row of rows) counts[row.state] = Number(row.count)
  return counts
}

async function queueAlreadySubscribedNote(trx: Db, subscriber: SubscriberTable, site: SiteForEmails): Promise<void> {
  const dedupeKey = `already:${subscriber.id}:${hourBucket()}`
  if ((await isQueued(trx, dedupeKey)) || (await sentTooOften(trx, subscriber.email, 'already'))) return
  const links = subscriberLinks(site.origin, subscriber.manageSecret)
  const body = paragraphWithLink(
    'Someone (we hope you) asked to subscribe this address, which is subscribed already. You can change your topics here.',
    'Change my topics',
    links.topics,
  )
  const message = composeEmail(site.name, subscriber.email, { subject: 'You are already subscribed', ...body }, links)
  await queueEmails(trx, [{ ...message, dedupeKey }])
}

/** Whether INVITATIONS_PER_ADDRESS e-mails of this kind went to the address in the last MAIL_COUNTED_DAYS. */
async function sentTooOften(trx: Db, address: string, kind: 'confirm' | 'already'): Promise<boolean> {
  const { count } = await trx
    .selectFrom('outgoingEmails')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('toAddress', '=', address)
    .where('dedupeKey', 'like', `${kind}:%`)
    .where('createdAt', '>=', new Date(Date.now() - MAIL_COUNTED_DAYS * 86_400_000).toISOString())
    .executeTakeFirstOrThrow()
  return Number(count) >= INVITATIONS_PER_ADDRESS
}

async function isQueued(trx: Db, dedupeKey: string): Promise<boolean> {
  return !!(await trx.selectFrom('outgoingEmails').select('id').where('dedupeKey', '=', dedupeKey).executeTakeFirst())
}

export type ConfirmOutcome = 'confirmed' | 'already-confirmed' | 'full' | 'unusable'

/**
 * Confirms the subscription of the link's secret: `already-confirmed` when it was pressed before,
 * `unusable` when the link is unknown, replaced or expired. The secret's hash stays on the row until
 * the person unsubscribes, so that a second press is recognised.
 */
export async function confirmSubscription(secret: string): Promise<ConfirmOutcome> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('subscribers')
      .select(['id', 'state', 'pendingSince'])
      .where('confirmSecretHash', '=', hashOfSecret(secret))
      .executeTakeFirst()
    if (row?.state === 'confirmed') return 'already-confirmed'
    if (!row || row.state !== 'pending' || !row.pendingSince || row.pendingSince < pendingCutoff()) return 'unusable'
    const { confirmed } = await countsByState(trx)
    if (confirmed >= env.SUBSCRIBERS_MAX) return 'full'
    const now = nowIso()
    const result = await trx
      .updateTable('subscribers')
      .set({ state: 'confirmed', confirmedAt: now, unsubscribedAt: null, updatedAt: now })
      .where('id', '=', row.id)
      .where('state', '=', 'pending')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) > 0 ? 'confirmed' : 'already-confirmed'
  })
}

/** A subscriber found by the secret of their unsubscribe and topics links. */
export async function findSubscriberByLink(secret: string): Promise<Pick<SubscriberTable, 'id' | 'state' | 'topics'> | null> {
  if (!secret) return null
  const row = await db
    .selectFrom('subscribers')
    .select(['id', 'state', 'topics'])
    .where('manageSecret', '=', secret)
    .executeTakeFirst()
  return row ?? null
}

/** Unsubscribes the link's subscriber (RFC 8058 one-click too); false for an unknown link. Mail still waiting to them is dropped. */
export async function unsubscribe(secret: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const subscriber = await trx
      .selectFrom('subscribers')
      .select(['id', 'email'])
      .where('manageSecret', '=', secret)
      .executeTakeFirst()
    if (!subscriber) return false
    const now = nowIso()
    await trx
      .updateTable('subscribers')
      .set({ state: 'unsubscribed', confirmSecretHash: null, unsubscribedAt: now, updatedAt: now })
      .where('id', '=', subscriber.id)
      .execute()
    // Only the e-mail updates: an event sign-up's confirmation or reminder to the same address still goes.
    await trx
      .deleteFrom('outgoingEmails')
      .where('toAddress', '=', subscriber.email)
      .where('status', '=', 'waiting')
      .where('leaseToken', 'is', null)
      .where((eb) => eb.or(NEWSLETTER_MAIL_KEYS.map((prefix) => eb('dedupeKey', 'like', `${prefix}:%`))))
      .execute()
    return true
  })
}

/** Changes the topics of the link's subscriber; false for an unknown link. */
export async function changeTopics(secret: string, topics: Topic[]): Promise<boolean> {
  const result = await db
    .updateTable('subscribers')
    .set({ topics: topics.join(','), updatedAt: nowIso() })
    .where('manageSecret', '=', secret)
    .where('state', '!=', 'unsubscribed')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** Deletes a person for good: their row and every e-mail to them, sent or waiting. */
export async function deleteSubscriber(id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const subscriber = await trx.selectFrom('subscribers').select('email').where('id', '=', id).executeTakeFirst()
    if (!subscriber) return false
    await removeEmailsTo(trx, subscriber.email)
    await trx.deleteFrom('subscribers').where('id', '=', id).execute()
    return true
  })
}
