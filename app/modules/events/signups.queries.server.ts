import { db } from '~/platform/db.server'
import type { EventSignupFormTable, EventSignupTable } from '~/platform/db-schema'
import { isPublicNow } from '~/platform/publication.server'
import { addDays, todayIn, type PlainDate } from '~/platform/dates'
import type { Shared } from '~/platform/shared'
import { EVENT_COLUMNS, withSkippedDates, type EventRecord } from './events.records.server'
import { nextOccurrences, occurrenceOn } from './events.recurrence.server'
import { PARTY_SIZE_MAX, SIGNUP_DAYS_AHEAD, SIGNUP_MESSAGES } from './signups.schema'

/** What the sign-up pages read: an event's form, places left on a date, a person's own sign-up, the admin's lists. */

export interface SignupForm extends Omit<EventSignupFormTable, 'asksPartySize'> {
  asksPartySize: boolean
}

const FORM_COLUMNS = ['eventId', 'placeLimit', 'contact', 'asksPartySize', 'closesHoursBefore'] as const

/** An event's sign-up form, or null when it takes none (an event page keeps it with the event, per content version). */
export async function readSignupForm(eventId: string): Promise<SignupForm | null> {
  const row = await db.selectFrom('eventSignupForms').select(FORM_COLUMNS).where('eventId', '=', eventId).executeTakeFirst()
  return row ? { ...row, asksPartySize: row.asksPartySize === 1 } : null
}

/** Sign-ups for a date close this many hours before it starts (at its start, by default). */
export function isClosed(form: Pick<SignupForm, 'closesHoursBefore'>, startsAt: Date, now: Date): boolean {
  return now.getTime() >= startsAt.getTime() - form.closesHoursBefore * 3_600_000
}

/** Sign-ups for a date beyond the horizon (SIGNUP_DAYS_AHEAD) are not taken yet. */
function opensLater(date: PlainDate, timeZone: string, now: Date): boolean {
  return date > addDays(todayIn(timeZone, now), SIGNUP_DAYS_AHEAD)
}

/** The public event and date a visitor signs up for, or what stands in the way, in plain words. */
export async function findSignupEvent(
  slug: string,
  date: PlainDate,
  { timeZone, now }: { timeZone: string; now: Date },
): Promise<{ problem: string } | { event: EventRecord; form: SignupForm; occurrenceStartsAt: Date }> {
  const row = await db
    .selectFrom('events')
    .select(EVENT_COLUMNS)
    .where('slug', '=', slug)
    .where(isPublicNow('events', now))
    .executeTakeFirst()
  const form = row ? await readSignupForm(row.id) : null
  if (!row || !form) return { problem: SIGNUP_MESSAGES.notTaking }
  if (opensLater(date, timeZone, now)) return { problem: SIGNUP_MESSAGES.tooFarAhead }
  const [event] = await withSkippedDates([row])
  const occurrence = occurrenceOn(event, date, timeZone)
  if (!occurrence) return { problem: SIGNUP_MESSAGES.noSuchDate }
  if (isClosed(form, occurrence.startsAt, now)) return { problem: SIGNUP_MESSAGES.closed }
  return { event, form, occurrenceStartsAt: occurrence.startsAt }
}

/** How many people a date's confirmed sign-ups bring. */
async function placesTaken(eventId: string, date: PlainDate): Promise<number> {
  const row = await db
    .selectFrom('eventSignups')
    .select((eb) => eb.fn.sum<number | null>('partySize').as('people'))
    .where('eventId', '=', eventId)
    .where('date', '=', date)
    .where('status', '=', 'confirmed')
    .executeTakeFirst()
  return Number(row?.people ?? 0)
}

export interface SignupState {
  contact: SignupForm['contact']
  asksPartySize: boolean
  /** The most people one sign-up may bring. */
  partySizeMax: number
  closed: boolean
  /** The date is too far ahead: sign-ups for it open later. */
  opensLater: boolean
  /** Null when there is no limit. */
  placesLeft: number | null
  full: boolean
}

/** Whether and how visitors can sign up for this date of an event, by its form; null when the event takes no sign-ups. */
export async function getSignupState(
  form: Shared<SignupForm> | null,
  date: PlainDate,
  startsAt: Date,
  { timeZone, now = new Date() }: { timeZone: string; now?: Date },
): Promise<SignupState | null> {
  if (!form) return null
  const placesLeft = form.placeLimit === null ? null : Math.max(0, form.placeLimit - (await placesTaken(form.eventId, date)))
  return {
    contact: form.contact,
    asksPartySize: form.asksPartySize,
    partySizeMax: Math.min(PARTY_SIZE_MAX, form.placeLimit ?? PARTY_SIZE_MAX),
    closed: isClosed(form, startsAt, now),
    opensLater: opensLater(date, timeZone, now),
    placesLeft,
    full: placesLeft === 0,
  }
}

export interface OwnSignup {
  eventId: string
  eventTitle: string
  eventSlug: string
  date: PlainDate
  name: string
  partySize: number
  status: EventSignupTable['status']
  /** On the waiting list: how many are before them (1 = next in line). */
  waitingPosition: number | null
}

/** A person's own sign-up, found by the secret of their link; null when it is gone. */
export async function getSignupByToken(token: string): Promise<OwnSignup | null> {
  const columns = ['eventId', 'date', 'name', 'partySize', 'status', 'createdAt'] as const
  // A repeated sign-up (signups.service.server.ts) shows as a new one would: the visitor cannot tell them apart.
  const row =
    (await db
      .selectFrom('eventSignups')
      .innerJoin('events', 'events.id', 'eventSignups.eventId')
      .select([...columns.map((column) => `eventSignups.${column}` as const), 'events.title', 'events.slug'])
      .where('eventSignups.cancelToken', '=', token)
      .executeTakeFirst()) ??
    (await db
      .selectFrom('repeatedSignups')
      .innerJoin('events', 'events.id', 'repeatedSignups.eventId')
      .select([...columns.map((column) => `repeatedSignups.${column}` as const), 'events.title', 'events.slug'])
      .where('repeatedSignups.cancelToken', '=', token)
      .executeTakeFirst())
  if (!row) return null
  let waitingPosition: number | null = null
  if (row.status === 'waiting') {
    const ahead = await db
      .selectFrom('eventSignups')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('eventId', '=', row.eventId)
      .where('date', '=', row.date)
      .where('status', '=', 'waiting')
      .where('createdAt', '<', row.createdAt)
      .executeTakeFirstOrThrow()
    waitingPosition = Number(ahead.count) + 1
  }
  return {
    eventId: row.eventId,
    eventTitle: row.title,
    eventSlug: row.slug,
    date: row.date,
    name: row.name,
    partySize: row.partySize,
    status: row.status,
    waitingPosition,
  }
}

export type AdminSignupRow = Pick<
  EventSignupTable,
  'id' | 'name' | 'email' | 'whatsapp' | 'partySize' | 'status' | 'createdAt' | 'promotedAt'
>

/** Everyone signed up for a date, the confirmed first, each group in the order they came. */
export async function listSignupsForAdmin(eventId: string, date: PlainDate): Promise<AdminSignupRow[]> {
  return db
    .selectFrom('eventSignups')
    .select(['id', 'name', 'email', 'whatsapp', 'partySize', 'status', 'createdAt', 'promotedAt'])
    .where('eventId', '=', eventId)
    .where('date', '=', date)
    .orderBy('status')
    .orderBy('createdAt')
    .orderBy('id')
    .execute()
}

export interface AdminSignupDate {
  date: PlainDate
  entries: number
}

/** The dates an admin can open: those with sign-ups, and the next few of the event (soonest first). */
export async function listSignupDatesForAdmin(
  eventId: string,
  { timeZone, now = new Date() }: { timeZone: string; now?: Date },
): Promise<AdminSignupDate[]> {
  const counted = await db
    .selectFrom('eventSignups')
    .select(['date', (eb) => eb.fn.countAll<number>().as('entries')])
    .where('eventId', '=', eventId)
    .groupBy('date')
    .orderBy('date')
    .limit(1_000)
    .execute()
  const row = await db.selectFrom('events').select(EVENT_COLUMNS).where('id', '=', eventId).executeTakeFirst()
  const upcoming = row ? nextOccurrences((await withSkippedDates([row]))[0], now, 6, timeZone).map((o) => o.date) : []
  const byDate = new Map<PlainDate, number>(counted.map((c) => [c.date, Number(c.entries)]))
  for (const date of upcoming) if (!byDate.has(date)) byDate.set(date, 0)
  return [...byDate].map(([date, entries]) => ({ date, entries })).sort((a, b) => a.date.localeCompare(b.date))
}

/** The sign-up part of the event's edit form. */
export async function getSignupFormValues(eventId: string) {
  const form = await readSignupForm(eventId)
  return {
    takesSignups: form !== null,
    signupLimit: form?.placeLimit ?? undefined,
    signupContact: form?.contact ?? 'email',
    signupAsksPartySize: form?.asksPartySize ?? false,
    signupClosesHoursBefore: form?.closesHoursBefore ?? 0,
  }
}

/** The event whose sign-ups an admin opens (drafts and trashed ones too). */
export async function getEventNameForAdmin(id: string): Promise<{ id: string; title: string; slug: string } | null> {
  return (await db.selectFrom('events').select(['id', 'title', 'slug']).where('id', '=', id).executeTakeFirst()) ?? null
}

/** How many people (parties) signed up for each of these events, on any date: what deleting them takes with them. */
export async function countSignupsOfEvents(eventIds: readonly string[]): Promise<Map<string, number>> {
  if (eventIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('eventSignups')
    .select(['eventId', (eb) => eb.fn.countAll<number>().as('count')])
    .where('eventId', 'in', [...eventIds])
    .groupBy('eventId')
    .execute()
  return new Map(rows.map((row) => [row.eventId, Number(row.count)]))
}
