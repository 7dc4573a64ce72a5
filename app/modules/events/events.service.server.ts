import type { Db } from '~/platform/db.server'
import { db, lockForUpdate, nowIso } from '~/platform/db.server'
import { instantIn, type PlainDate } from '~/platform/dates'
import { slugify } from '~/platform/slug'
import { insertWithUniqueSlug } from '~/platform/unique-slug.server'
import { lastStartOf, type EventTiming } from './events.recurrence.server'
import type { EventInput } from './events.schema'
import { EDITED, publishAtOnInsert, publishAtOnUpdate, type WithPublishing } from '~/platform/publication'
import { saveSignupForm } from './signups.service.server'
import { removeEventSignupEmails } from './signups.emails.server'

/** The event to change no longer exists (deleted in another tab, say). */
export class EventNotFoundError extends Error {
  constructor() {
    super('Event not found')
    this.name = 'EventNotFoundError'
  }
}

/** When the event ends, as stored: for an all-day event the start of its last day, if that is a later day. */
function endOf(input: WithPublishing<EventInput>, timeZone: string): string | null {
  if (!input.startTime) {
    return input.endDate && input.endDate > input.startDate ? instantIn(input.endDate, '00:00', timeZone).toISOString() : null
  }
  return input.endTime ? instantIn(input.endDate ?? input.startDate, input.endTime, timeZone).toISOString() : null
}

/**
 * The form's local dates and times as stored: UTC instants, the rule, and the skipped dates.
 * An all-day event (no start time) starts at the start of its day.
 */
function toStored(input: WithPublishing<EventInput>, timeZone: string) {
  const allDay = !input.startTime
  const startsAt = instantIn(input.startDate, input.startTime ?? '00:00', timeZone).toISOString()
  const endsAt = endOf(input, timeZone)
  const repeats = input.repeat !== 'none'
  const skippedDates = repeats ? [...new Set([...input.skippedDates, ...(input.skipDate ? [input.skipDate] : [])])] : []
  const timing: EventTiming = {
    startsAt,
    endsAt,
    allDay,
    repeat: input.repeat,
    repeatUntil: repeats && input.repeatEnds === 'on-date' ? (input.repeatUntil ?? null) : null,
    repeatCount: repeats && input.repeatEnds === 'after-count' ? (input.repeatCount ?? null) : null,
    skippedDates,
  }
  return {
    row: {
      title: input.title,
      description: input.description,
      location: input.location,
      type: input.type,
      allDay: allDay ? 1 : 0,
      startsAt,
      endsAt,
      repeat: timing.repeat,
      repeatUntil: timing.repeatUntil,
      repeatCount: timing.repeatCount,
      lastStartsAt: lastStartOf(timing, timeZone)?.toISOString() ?? null,
    },
    skippedDates,
  }
}

async function replaceSkippedDates(trx: Db, eventId: string, dates: PlainDate[]): Promise<void> {
  await trx.deleteFrom('eventSkippedDates').where('eventId', '=', eventId).execute()
  if (dates.length > 0) {
    await trx
      .insertInto('eventSkippedDates')
      .values(dates.map((date) => ({ eventId, date })))
      .execute()
  }
}

/**
 * Records a new event; run it inside a transaction. Dates and times are local to `timeZone`.
 * `createdAt` is now unless given (an event imported from the old site keeps its own).
 */
export async function insertEvent(
  trx: Db,
  input: WithPublishing<EventInput>,
  timeZone: string,
  createdAt?: string,
): Promise<{ id: string; slug: string }> {
  const { row, skippedDates } = toStored(input, timeZone)
  const now = nowIso()
  const id = crypto.randomUUID()
  const event = await insertWithUniqueSlug(trx, 'events', slugify(input.title, 'event'), async (slug) => {
    await trx
      .insertInto('events')
      .values({
        id,
        slug,
        ...row,
        createdAt: createdAt ?? now,
        updatedAt: now,
        publishAt: publishAtOnInsert(input, createdAt ?? now),
      })
      .execute()
    return { id, slug }
  })
  await replaceSkippedDates(trx, event.id, skippedDates)
  await saveSignupForm(trx, event.id, input)
  return event
}

export async function createEvent(input: WithPublishing<EventInput>, timeZone: string): Promise<{ id: string; slug: string }> {
  return db.transaction().execute((trx) => insertEvent(trx, input, timeZone))
}

/** Changes an event; its address stays, so shared links keep working. Throws EventNotFoundError when it is gone or in the trash. */
export async function updateEvent(id: string, input: WithPublishing<EventInput>, timeZone: string): Promise<{ slug: string }> {
  const { row, skippedDates } = toStored(input, timeZone)
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('events')
      .select('slug')
      .where('id', '=', id)
      .where('trashedAt', 'is', null)
      .executeTakeFirst()
    if (!current) throw new EventNotFoundError()
    await trx
      .updateTable('events')
      .set({ ...row, updatedAt: nowIso(), ...publishAtOnUpdate(input), ...EDITED })
      .where('id', '=', id)
      .execute()
    await replaceSkippedDates(trx, id, skippedDates)
    await saveSignupForm(trx, id, input)
    return { slug: current.slug }
  })
}

/**
 * Deletes an event, or a whole series, and returns its title (for the audit log). Deleting one
 * that is already gone (or, `fromTrash`, no longer in the trash) is not an error and returns nothing.
 */
export async function deleteEvent(id: string, { fromTrash = false } = {}): Promise<{ title: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await lockForUpdate(
      trx
        .selectFrom('events')
        .select('title')
        .where('id', '=', id)
        .$if(fromTrash, (qb) => qb.where('trashedAt', 'is not', null)),
    ).executeTakeFirst()
    if (!row) return undefined
    await trx.deleteFrom('eventSkippedDates').where('eventId', '=', id).execute()
    // The people signed up go with the event, for good, and the e-mails to them.
    await removeEventSignupEmails(trx, id)
    await trx.deleteFrom('eventSignups').where('eventId', '=', id).execute()
    await trx.deleteFrom('eventSignupForms').where('eventId', '=', id).execute()
    await trx.deleteFrom('events').where('id', '=', id).execute()
    return row
  })
}

/**
 * Takes one date out of a series ("delete this occurrence"). A one-off event is left as it is and
 * answered `oneOff`: its only date is the whole event, which goes to the trash like any other.
 * Taking out a date twice is not an error, nor is an event already gone. Returns the event's
 * title (for the audit log), nothing when it was gone.
 */
export async function deleteOccurrence(id: string, date: PlainDate): Promise<{ title: string } | { oneOff: true } | undefined> {
  return db.transaction().execute(async (trx) => {
    const event = await trx
      .selectFrom('events')
      .select(['title', 'repeat'])
      .where('id', '=', id)
      .where('trashedAt', 'is', null)
      .executeTakeFirst()
    if (!event) return undefined
    if (event.repeat === 'none') return { oneOff: true }
    await trx
      .insertInto('eventSkippedDates')
      .values({ eventId: id, date })
      .onConflict((oc) => oc.columns(['eventId', 'date']).doNothing())
      .execute()
    await trx.updateTable('events').set({ updatedAt: nowIso() }).where('id', '=', id).execute()
    return { title: event.title }
  })
}
