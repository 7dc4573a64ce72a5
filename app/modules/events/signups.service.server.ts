import crypto from 'node:crypto'
import { sql } from 'kysely'
import { db, lockForUpdate, nowIso, type Db } from '~/platform/db.server'
import { markContentChanged } from '~/platform/content-version.server'
import { todayIn } from '~/platform/dates'
import type { EventSignupTable } from '~/platform/db-schema'
import { newSecretToken } from '~/platform/secret-tokens.server'
import { clientRateLimitKey } from '~/platform/client-address.server'
import { createRateLimiter } from '~/platform/rate-limit.server'
import { HONEYPOT_FIELD } from '~/platform/honeypot'
import { normaliseWhatsAppNumber } from '~/platform/phone-numbers'
import type { EventRecord } from './events.records.server'
import { findSignupEvent, isClosed, type SignupForm } from './signups.queries.server'
import { sendQueuedEmailsSoon } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import { queueEmails } from '~/modules/outgoing-mail/outgoing-mail.server'
import {
  queueSignupEmails,
  readEventForEmails,
  removeSignupEmails,
  signupEmail,
  signupMessageEmail,
  type SignupEmailSite,
} from './signups.emails.server'
import { SIGNUP_MESSAGES, SIGNUPS_PER_DATE_MAX, type SignupSettings, type SignUpInput } from './signups.schema'

/**
 * Sign-ups for an event's dates (docs/decisions/036-event-sign-ups.md). Capacity holds under
 * concurrency: each change counts and writes inside one transaction that first locks the event's
 * sign-up form (PostgreSQL: `for update`; SQLite: its transactions are IMMEDIATE and run one at a time).
 */

/** Generous enough for a family signing up from one shared phone, and for several people behind one address. */
export const SIGNUP_RATE_LIMIT = { attempts: 10, windowSeconds: 60 * 60 }
const signupRateLimiter = createRateLimiter('event-signups', SIGNUP_RATE_LIMIT)
/**
 * Each sign-up e-mails the address given, which nobody has proved to be theirs: however many
 * clients send the form, one address gets the e-mails of at most this many sign-ups a week.
 */
export const SIGNUPS_PER_ADDRESS = { attempts: 5, windowSeconds: 7 * 24 * 60 * 60 }
const addressRateLimiter = createRateLimiter('event-signups-address', SIGNUPS_PER_ADDRESS)

export type SignUpOutcome =
  | { outcome: 'signed-up'; status: EventSignupTable['status']; token: string }
  /** A bot filled the honeypot: it is answered as if all went well; nothing was stored. */
  | { outcome: 'discarded' }
  | { outcome: 'rate-limited'; retryAfterSeconds: number }
  | { outcome: 'refused'; message: string; field?: 'email' | 'whatsapp' | 'partySize' | 'date' }

/** Saves the sign-up part of the event form (inside the event's transaction): the form row exists while sign-ups are on. */
export async function saveSignupForm(trx: Db, eventId: string, input: SignupSettings): Promise<void> {
  if (!input.takesSignups) {
    // Turned off: nobody new can sign up; who signed up stays on the admin's list.
    await trx.deleteFrom('eventSignupForms').where('eventId', '=', eventId).execute()
    return
  }
  const form = {
    placeLimit: input.signupLimit ?? null,
    contact: input.signupContact,
    asksPartySize: input.signupAsksPartySize ? 1 : 0,
    closesHoursBefore: input.signupClosesHoursBefore,
  }
  await trx
    .insertInto('eventSignupForms')
    .values({ eventId, ...form })
    .onConflict((oc) => oc.column('eventId').doUpdateSet(form))
    .execute()
}

/** What the form asks and the event's rules, checked before anything is counted. */
function contactProblem(form: SignupForm, input: SignUpInput): SignUpOutcome | null {
  if (form.contact === 'email' && !input.email)
    return { outcome: 'refused', field: 'email', message: SIGNUP_MESSAGES.emailNeeded }
  if (form.contact === 'whatsapp' && !input.whatsapp) {
    return { outcome: 'refused', field: 'whatsapp', message: SIGNUP_MESSAGES.whatsappNeeded }
  }
  if (form.contact === 'either' && !input.email && !input.whatsapp) {
    return { outcome: 'refused', field: 'email', message: SIGNUP_MESSAGES.contactNeeded }
  }
  if (form.placeLimit !== null && input.partySize > form.placeLimit) {
    return { outcome: 'refused', field: 'partySize', message: SIGNUP_MESSAGES.partyTooLarge }
  }
  return null
}

/** Locks the event's sign-up form for the rest of the transaction; null when the event takes no sign-ups (any more). */
async function lockSignupForm(trx: Db, eventId: string): Promise<SignupForm | null> {
  const row = await lockForUpdate(
    trx
      .selectFrom('eventSignupForms')
      .select(['eventId', 'placeLimit', 'contact', 'asksPartySize', 'closesHoursBefore'])
      .where('eventId', '=', eventId),
  ).executeTakeFirst()
  return row ? { ...row, asksPartySize: row.asksPartySize === 1 } : null
}

/** How many sign-ups a date has, and how many people they confirm. */
async function countDate(
  trx: Db,
  eventId: string,
  date: string,
): Promise<{ entries: number; taken: number; latest: string | null }> {
  const rows = await trx
    .selectFrom('eventSignups')
    .select([
      'status',
      (eb) => eb.fn.countAll<number>().as('entries'),
      (eb) => eb.fn.sum<number>('partySize').as('people'),
      (eb) => eb.fn.max('createdAt').as('latest'),
    ])
    .where('eventId', '=', eventId)
    .where('date', '=', date)
    .groupBy('status')
    .execute()
  return {
    entries: rows.reduce((sum, row) => sum + Number(row.entries), 0),
    taken: Number(rows.find((row) => row.status === 'confirmed')?.people ?? 0),
    latest: rows.reduce<string | null>((latest, row) => (latest === null || row.latest > latest ? row.latest : latest), null),
  }
}

/**
 * When a sign-up was taken: never at or before the date's latest, so that two taken within one
 * millisecond keep their order (the waiting list goes by it; ids are random).
 */
function takenAt(now: Date, latest: string | null): string {
  return new Date(latest === null ? now.getTime() : Math.max(now.getTime(), Date.parse(latest) + 1)).toISOString()
}

const isFull = (form: SignupForm, taken: number) => form.placeLimit !== null && taken >= form.placeLimit

/**
 * A visitor signs up for one date of a public event: confirmed while places last, otherwise on
 * the waiting list, and told so by e-mail when they gave an address. Bots (the honeypot) and
 * floods (per client address, and per date) are refused before anything is written.
 */
export async function signUpForEvent(
  slug: string,
  input: SignUpInput,
  {
    clientKey,
    site,
    origin,
    phoneCountryCode,
    now = new Date(),
  }: {
    clientKey: string
    site: SignupEmailSite
    /** The site's address, for the links in the e-mails. */
    origin: string
    /** The site's calling code: a number dialled there is the same contact as the number in full. */
    phoneCountryCode: string
    now?: Date
  },
): Promise<SignUpOutcome> {
  if (input[HONEYPOT_FIELD]) return { outcome: 'discarded' }
  // One number however it is typed (+1 268 555 0199, (268) 555-0199, 555 0199): one contact.
  const whatsapp = input.whatsapp ? normaliseWhatsAppNumber(input.whatsapp, phoneCountryCode) : null
  if (whatsapp === 'invalid') return { outcome: 'refused', field: 'whatsapp', message: SIGNUP_MESSAGES.whatsappInvalid }
  input = { ...input, whatsapp: whatsapp ?? undefined }
  const found = await findSignupEvent(slug, input.date, { timeZone: site.timeZone, now })
  if ('problem' in found) return { outcome: 'refused', field: 'date', message: found.problem }
  const problem = contactProblem(found.form, input)
  if (problem) return problem
  const verdict = await signupRateLimiter.hit(clientRateLimitKey(clientKey))
  if (verdict.limited) return { outcome: 'rate-limited', retryAfterSeconds: verdict.retryAfterSeconds }
  if (input.email) {
    // Hashed, so that no address sits in the counter table.
    const address = crypto.createHash('sha256').update(input.email.toLowerCase()).digest('hex')
    if ((await addressRateLimiter.hit(address)).limited) {
      return { outcome: 'refused', field: 'email', message: SIGNUP_MESSAGES.tooManyForAddress }
    }
  }

  const outcome = await db.transaction().execute(async (trx): Promise<SignUpOutcome> => {
    const form = await lockSignupForm(trx, found.event.id)
    if (!form) return { outcome: 'refused', field: 'date', message: SIGNUP_MESSAGES.notTaking }
    if (isClosed(form, found.occurrenceStartsAt, now))
      return { outcome: 'refused', field: 'date', message: SIGNUP_MESSAGES.closed }
    const { entries, taken, latest } = await countDate(trx, found.event.id, input.date)
    const repeats = await countRepeats(trx, found.event.id, input.date)
    if (entries + repeats >= SIGNUPS_PER_DATE_MAX) return { outcome: 'refused', message: SIGNUP_MESSAGES.listFull }
    const partySize = form.asksPartySize ? input.partySize : 1
    const fits = form.placeLimit === null || taken + partySize <= form.placeLimit
    const status = fits ? 'confirmed' : 'waiting'
    const signup = {
      id: crypto.randomUUID(),
      eventId: found.event.id,
      date: input.date,
      name: input.name,
      email: input.email || null,
      whatsapp: input.whatsapp || null,
      partySize,
      status,
      cancelToken: newSecretToken(),
      siteOrigin: origin,
      createdAt: takenAt(now, latest),
      promotedAt: null,
      reminderQueuedAt: null,
    } satisfies EventSignupTable
    // The unique indexes on the date and contact refuse a second sign-up, even from a parallel post.
    const inserted = await trx
      .insertInto('eventSignups')
      .values(signup)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      await repeatSignup(trx, signup, found.event, site)
      return { outcome: 'signed-up', status, token: signup.cancelToken }
    }
    await queueSignupEmails(trx, [signupEmail(status, signup, found.event, site)])
    // The event's page says "full" from now on: cached copies of it are made anew.
    if (fits && isFull(form, taken + partySize)) await markContentChanged(trx)
    return { outcome: 'signed-up', status, token: signup.cancelToken }
  })
  sendQueuedEmailsSoon()
  return outcome
}

async function countRepeats(trx: Db, eventId: string, date: string): Promise<number> {
  const row = await trx
    .selectFrom('repeatedSignups')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('eventId', '=', eventId)
    .where('date', '=', date)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * A sign-up whose e-mail address or WhatsApp number is already on the date: the same person
 * again, or someone finding out whether a person attends. It is answered exactly as a new one,
 * with a page of its own that holds no place and is on no list (its contact is not kept). The
 * person already signed up is told once, by e-mail, with their own link; an address given that is
 * not theirs gets what a new sign-up would.
 */
async function repeatSignup(trx: Db, signup: EventSignupTable, event: EventRecord, site: SignupEmailSite): Promise<void> {
  const email = signup.email?.toLowerCase() ?? null
  const already = await trx
    .selectFrom('eventSignups')
    .select(['id', 'name', 'email', 'date', 'cancelToken', 'siteOrigin'])
    .where('eventId', '=', signup.eventId)
    .where('date', '=', signup.date)
    .where((eb) =>
      eb.or([
        ...(email ? [eb(sql<string>`lower(${sql.ref('email')})`, '=', email)] : []),
        ...(signup.whatsapp ? [eb('whatsapp', '=', signup.whatsapp)] : []),
      ]),
    )
    .limit(2)
    .execute()
  const { id, eventId, date, name, partySize, status, cancelToken, createdAt } = signup
  await trx.insertInto('repeatedSignups').values({ id, eventId, date, name, partySize, status, cancelToken, createdAt }).execute()
  const theirs = already.some((row) => row.email?.toLowerCase() === email)
  await queueSignupEmails(trx, [
    ...already.map((row) => signupEmail('repeated', row, event, site)),
    theirs ? null : signupEmail(status, signup, event, site),
  ])
}

export interface RemovedSignup {
  eventId: string
  eventTitle: string
  eventSlug: string
  date: string
  /** Those moved from the waiting list to a place, in their order. */
  promoted: Pick<EventSignupTable, 'id' | 'name'>[]
}

/**
 * Gives the free places of a date to its waiting list, first come first served: each in line whose
 * party fits the places left is promoted (and told), in order; a party too large for them waits
 * without holding back those behind it. Run with the form locked.
 */
async function promoteWaiting(
  trx: Db,
  form: SignupForm,
  event: EventRecord,
  date: string,
  site: SignupEmailSite,
): Promise<Pick<EventSignupTable, 'id' | 'name'>[]> {
  let { taken } = await countDate(trx, event.id, date)
  const waiting = await trx
    .selectFrom('eventSignups')
    .select(['id', 'name', 'email', 'date', 'cancelToken', 'siteOrigin', 'partySize'])
    .where('eventId', '=', event.id)
    .where('date', '=', date)
    .where('status', '=', 'waiting')
    .orderBy('createdAt')
    .orderBy('id')
    .limit(SIGNUPS_PER_DATE_MAX)
    .execute()
  const promoted: Pick<EventSignupTable, 'id' | 'name'>[] = []
  for (const next of waiting) {
    if (form.placeLimit !== null && taken + next.partySize > form.placeLimit) continue
    await trx.updateTable('eventSignups').set({ status: 'confirmed', promotedAt: nowIso() }).where('id', '=', next.id).execute()
    taken += next.partySize
    promoted.push({ id: next.id, name: next.name })
    await queueSignupEmails(trx, [signupEmail('promoted', next, event, site)])
  }
  return promoted
}

/**
 * Deletes a sign-up for good, with its e-mails, and gives its places to the waiting list. Null when
 * it is gone. Its status is read under the form's lock: a promotion running in parallel may have
 * just confirmed it, and then its places go to the next in line.
 */
async function removeSignup(
  trx: Db,
  found: Pick<EventSignupTable, 'id' | 'eventId'>,
  site: SignupEmailSite,
): Promise<RemovedSignup | null> {
  const form = await lockSignupForm(trx, found.eventId)
  const signup = await trx
    .selectFrom('eventSignups')
    .select(['id', 'eventId', 'date', 'status', 'partySize'])
    .where('id', '=', found.id)
    .executeTakeFirst()
  if (!signup) return null
  const event = await readEventForEmails(trx, signup.eventId)
  if (!event) throw new Error('the event of a sign-up is gone')
  await removeSignupEmails(trx, signup.id)
  await trx.deleteFrom('eventSignups').where('id', '=', signup.id).execute()
  const removed: RemovedSignup = {
    eventId: event.id,
    eventTitle: event.title,
    eventSlug: event.slug,
    date: signup.date,
    promoted: [],
  }
  if (!form || signup.status !== 'confirmed') return removed
  const { taken } = await countDate(trx, signup.eventId, signup.date)
  const wasFull = isFull(form, taken + signup.partySize)
  removed.promoted = await promoteWaiting(trx, form, event, signup.date, site)
  if (wasFull !== isFull(form, (await countDate(trx, signup.eventId, signup.date)).taken)) await markContentChanged(trx)
  return removed
}

/**
 * After the event's form changed (more places, no limit any more): the waiting lists of its
 * dates to come get the places now free. Returns how many were promoted.
 */
export async function promoteAfterFormChange(eventId: string, site: SignupEmailSite, now = new Date()): Promise<number> {
  const today = todayIn(site.timeZone, now)
  const dates = await db
    .selectFrom('eventSignups')
    .select('date')
    .distinct()
    .where('eventId', '=', eventId)
    .where('status', '=', 'waiting')
    .where('date', '>=', today)
    .limit(100)
    .execute()
  let promoted = 0
  for (const { date } of dates) {
    promoted += await db.transaction().execute(async (trx) => {
      const form = await lockSignupForm(trx, eventId)
      const event = await readEventForEmails(trx, eventId)
      return form && event ? (await promoteWaiting(trx, form, event, date, site)).length : 0
    })
  }
  if (promoted > 0) {
    await markContentChanged()
    sendQueuedEmailsSoon()
  }
  return promoted
}

/** The person cancels with the secret of their link. Null when there is no such sign-up (cancelled already). */
export async function cancelSignup(token: string, site: SignupEmailSite): Promise<RemovedSignup | null> {
  const removed = await db.transaction().execute(async (trx) => {
    const signup = await trx
      .selectFrom('eventSignups')
      .select(['id', 'eventId'])
      .where('cancelToken', '=', token)
      .executeTakeFirst()
    return signup ? removeSignup(trx, signup, site) : removeRepeatedSignup(trx, token)
  })
  sendQueuedEmailsSoon()
  return removed
}

/** Cancelling a repeated sign-up: it held no place, so only it and its e-mails go. */
async function removeRepeatedSignup(trx: Db, token: string): Promise<RemovedSignup | null> {
  const repeated = await trx
    .selectFrom('repeatedSignups')
    .innerJoin('events', 'events.id', 'repeatedSignups.eventId')
    .select(['repeatedSignups.id', 'repeatedSignups.date', 'events.id as eventId', 'events.title', 'events.slug'])
    .where('repeatedSignups.cancelToken', '=', token)
    .executeTakeFirst()
  if (!repeated) return null
  await removeSignupEmails(trx, repeated.id)
  await trx.deleteFrom('repeatedSignups').where('id', '=', repeated.id).execute()
  return { eventId: repeated.eventId, eventTitle: repeated.title, eventSlug: repeated.slug, date: repeated.date, promoted: [] }
}

/** An administrator deletes a sign-up for good (the person asked, say). Null when it is gone already. */
export async function deleteSignup(eventId: string, id: string, site: SignupEmailSite): Promise<RemovedSignup | null> {
  const removed = await db.transaction().execute(async (trx) => {
    const signup = await trx
      .selectFrom('eventSignups')
      .select(['id', 'eventId'])
      .where('id', '=', id)
      .where('eventId', '=', eventId)
      .executeTakeFirst()
    return signup ? removeSignup(trx, signup, site) : null
  })
  sendQueuedEmailsSoon()
  return removed
}

/**
 * An administrator writes to the people of a date who gave an e-mail address (the confirmed, and
 * the waiting list if asked): one e-mail each through the outgoing mail. Returns how many were
 * queued, and the batch that follows their sending (batchProgress).
 */
export async function messageSignups(
  eventId: string,
  date: string,
  message: { subject: string; body: string; includeWaiting: boolean },
  site: SignupEmailSite,
): Promise<{ queued: number; batchId: string }> {
  const batchId = crypto.randomUUID()
  const queued = await db.transaction().execute(async (trx) => {
    const people = await trx
      .selectFrom('eventSignups')
      .select(['id', 'name', 'email', 'date', 'cancelToken', 'siteOrigin'])
      .where('eventId', '=', eventId)
      .where('date', '=', date)
      .where('email', 'is not', null)
      .where('status', 'in', message.includeWaiting ? ['confirmed', 'waiting'] : ['confirmed'])
      .limit(SIGNUPS_PER_DATE_MAX)
      .execute()
    // All or none: a full queue refuses the whole message with its plain words (OutgoingMailQuotaError).
    // An administrator's message: it counts against their budget, not the one visitors can fill.
    return queueEmails(
      trx,
      people.flatMap((person) => signupMessageEmail(person, { ...message, batchId }, site) ?? []),
      { origin: 'admin' },
    )
  })
  sendQueuedEmailsSoon()
  return { queued, batchId }
}
