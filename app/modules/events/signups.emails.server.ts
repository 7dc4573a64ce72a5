import { sql, type Expression, type RawBuilder } from 'kysely'
import { dialectName, type Db } from '~/platform/db.server'
import type { EventSignupTable } from '~/platform/db-schema'
import { formatPlainDate } from '~/platform/dates'
import { escapeMarkup } from '~/platform/escape-markup'
import { logger } from '~/platform/logger.server'
import { OutgoingMailQuotaError, queueEmails, type OutgoingEmail } from '~/modules/outgoing-mail/outgoing-mail.server'
import { buildCalendarFile } from './events.calendar-apps.server'
import { EVENT_COLUMNS, type EventRecord } from './events.records.server'
import { occurrenceOn } from './events.recurrence.server'
import { formatOccurrenceTimes } from './events.wording.server'

/**
 * The e-mails to people who signed up, queued on the outgoing mail (decision 035) in the caller's
 * transaction: the confirmation (with the date as an .ics file), the waiting list's, the one for a
 * place that became free, the reminder the day before, and the administrators' messages. Each has a
 * dedupe key starting `signup:<id>:`, so none is queued twice and all go when the sign-up is deleted.
 */

export type SignupEmailKind = 'confirmed' | 'waiting' | 'promoted' | 'reminder' | 'repeated'

export type SignupForEmail = Pick<EventSignupTable, 'id' | 'name' | 'email' | 'date' | 'cancelToken' | 'siteOrigin'>

export interface SignupEmailSite {
  siteName: string
  timeZone: string
}

/** What the e-mails take from the site settings. */
export function emailSiteOf(settings: { organisationName: string; timeZone: string }): SignupEmailSite {
  return { siteName: settings.organisationName, timeZone: settings.timeZone }
}

const SUBJECTS: Record<SignupEmailKind, (title: string) => string> = {
  confirmed: (title) => `You are signed up: ${title}`,
  waiting: (title) => `On the waiting list: ${title}`,
  promoted: (title) => `A place became free: you are signed up for ${title}`,
  reminder: (title) => `Tomorrow: ${title}`,
  repeated: (title) => `You are already signed up: ${title}`,
}

const OPENINGS: Record<SignupEmailKind, string> = {
  confirmed: 'You are signed up. The date is attached for your calendar.',
  waiting: 'The date is full, so you are on the waiting list. We will write again if a place becomes free.',
  promoted: 'A place became free, and it is yours: you are signed up. The date is attached for your calendar.',
  reminder: 'A reminder: you are signed up for tomorrow.',
  repeated:
    'Someone signed up again for this date with your e-mail address or WhatsApp number. You were already signed up, so nothing has changed.',
}

// Nobody proved that the address is theirs: the e-mails hold nothing the visitor typed (their name
// could be a message to a stranger), only the site's own words and the event's.
const GREETING = 'Hello,'

/** The event as stored, read with the caller's executor (inside a transaction, the shared connection is its own). */
export async function readEventForEmails(executor: Db, eventId: string): Promise<EventRecord | null> {
  const row = await executor.selectFrom('events').select(EVENT_COLUMNS).where('id', '=', eventId).executeTakeFirst()
  if (!row) return null
  const skipped = await executor.selectFrom('eventSkippedDates').select('date').where('eventId', '=', eventId).execute()
  return { ...row, allDay: row.allDay === 1, skippedDates: skipped.map((s) => s.date) }
}

/** The one date signed up for, as a calendar file of its own (a series' other dates are not the person's). */
function occurrenceCalendarFile(event: EventRecord, signup: SignupForEmail, site: SignupEmailSite): string | null {
  const occurrence = occurrenceOn(event, signup.date, site.timeZone)
  if (!occurrence) return null
  const single: EventRecord = {
    ...event,
    id: `${event.id}-${signup.date}`,
    startsAt: occurrence.startsAt.toISOString(),
    endsAt: occurrence.endsAt?.toISOString() ?? null,
    repeat: 'none',
    repeatUntil: null,
    repeatCount: null,
    skippedDates: [],
  }
  return buildCalendarFile([single], { name: event.title, origin: signup.siteOrigin, timeZone: site.timeZone })
}

function paragraphsHtml(lines: string[]): string {
  return lines.map((line) => `<p>${escapeMarkup(line).replaceAll('\n', '<br>')}</p>`).join('\n')
}

/** One e-mail to one person; null when they gave no e-mail address. */
function emailTo(
  signup: SignupForEmail,
  {
    subject,
    lines,
    link,
    dedupeKey,
    batchId,
    attachment,
  }: {
    subject: string
    lines: string[]
    link: { url: string; label: string }
    dedupeKey: string
    batchId?: string
    attachment?: OutgoingEmail['attachments']
  },
): OutgoingEmail | null {
  if (!signup.email) return null
  const text = [...lines, `${link.label}: ${link.url}`].join('\n\n')
  const html = `${paragraphsHtml(lines)}\n<p><a href="${escapeMarkup(link.url)}">${escapeMarkup(link.label)}</a></p>`
  return { to: signup.email, subject, text, html, dedupeKey, batchId, attachments: attachment }
}

const ownPageLink = (signup: SignupForEmail) => ({
  url: `${signup.siteOrigin}/signups/${signup.cancelToken}`,
  label: 'See or cancel your sign-up',
})

export function signupEmail(
  kind: SignupEmailKind,
  signup: SignupForEmail,
  event: EventRecord,
  site: SignupEmailSite,
): OutgoingEmail | null {
  const occurrence = occurrenceOn(event, signup.date, site.timeZone)
  const when = occurrence
    ? `${formatPlainDate(signup.date)}, ${formatOccurrenceTimes(occurrence, site.timeZone)}`
    : formatPlainDate(signup.date)
  const ics = kind === 'waiting' || kind === 'repeated' ? null : occurrenceCalendarFile(event, signup, site)
  return emailTo(signup, {
    subject: SUBJECTS[kind](event.title),
    lines: [GREETING, OPENINGS[kind], `${event.title}\n${when}\n${event.location}`, site.siteName],
    link: ownPageLink(signup),
    dedupeKey: `signup:${signup.id}:${kind}`,
    attachment: ics ? [{ filename: 'event.ics', contentType: 'text/calendar; charset=utf-8', content: ics }] : undefined,
  })
}

/** An administrator's message to the people of a date, each with the link to their own sign-up. */
export function signupMessageEmail(
  signup: SignupForEmail,
  message: { subject: string; body: string; batchId: string },
  site: SignupEmailSite,
): OutgoingEmail | null {
  return emailTo(signup, {
    subject: message.subject,
    lines: [GREETING, message.body, site.siteName],
    link: ownPageLink(signup),
    dedupeKey: `signup:${signup.id}:message:${message.batchId}`,
    batchId: message.batchId,
  })
}

/**
 * Queues the e-mails; a full queue does not undo the sign-up (the person has its page and link
 * already): the e-mails are left out and the fact is logged, without anyone's data.
 */
export async function queueSignupEmails(trx: Db, emails: (OutgoingEmail | null)[]): Promise<number> {
  const ready = emails.filter((email) => email !== null)
  try {
    return await queueEmails(trx, ready)
  } catch (error) {
    if (!(error instanceof OutgoingMailQuotaError)) throw error
    logger.warn({ count: ready.length }, 'the outgoing mail queue is full; sign-up e-mails left out')
    return 0
  }
}

/**
 * The e-mails of a sign-up (keys `signup:<id>:…`) as a range on the indexed dedupe_key: from
 * `signup:<id>:` up to `signup:<id>;` (';' follows ':' in byte order). A LIKE would read the whole
 * table. PostgreSQL compares in bytes here (`collate "C"`, indexed so by migration 0026): a
 * language's collation orders punctuation otherwise, and the range would miss keys.
 */
export function signupEmailKeys(signupId: string | Expression<string>): RawBuilder<boolean> {
  const key =
    dialectName === 'postgres' ? sql`${sql.ref('outgoingEmails.dedupeKey')} collate "C"` : sql.ref('outgoingEmails.dedupeKey')
  const bound = (separator: ':' | ';') =>
    typeof signupId === 'string' ? sql`${`signup:${signupId}${separator}`}` : sql`'signup:' || ${signupId} || ${separator}`
  return sql<boolean>`${key} >= ${bound(':')} and ${key} < ${bound(';')}`
}

/** Removes the e-mails to a sign-up, sent or not: part of deleting it for good. */
export async function removeSignupEmails(trx: Db, signupId: string): Promise<void> {
  await trx.deleteFrom('outgoingEmails').where(signupEmailKeys(signupId)).execute()
}

/** Removes the e-mails to every sign-up of an event (repeated ones too), sent or not: part of deleting the event for good. */
export async function removeEventSignupEmails(trx: Db, eventId: string): Promise<void> {
  // From the event's sign-ups to each one's range of keys: neither table is read whole.
  for (const table of ['eventSignups', 'repeatedSignups'] as const) {
    await trx
      .deleteFrom('outgoingEmails')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom(table)
          .innerJoin('outgoingEmails', (join) => join.on(signupEmailKeys(sql.ref(`${table}.id`))))
          .select('outgoingEmails.id')
          .where(`${table}.eventId`, '=', eventId),
      )
      .execute()
  }
}
