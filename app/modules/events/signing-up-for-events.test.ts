import { beforeEach, describe, expect, it } from 'vitest'
import { createWeeklyEvent, weeklyEventInput } from '../../../tests/fixtures/weekly-event'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { saveSiteSettings } from '~/modules/settings/settings.service.server'
import { addDays, instantIn, todayIn } from '~/platform/dates'
import { sql } from 'kysely'
import { db, dialectName } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { deleteEvent, updateEvent } from './events.service.server'
import { queueDueReminders } from './signups.reminders.server'
import { SIGNUP_DAYS_AHEAD, SIGNUP_MESSAGES, SignUpSchema } from './signups.schema'
import { signupEmailKeys } from './signups.emails.server'
import { getSignupByToken } from './signups.queries.server'
import { cancelSignup, promoteAfterFormChange, signUpForEvent, type SignUpOutcome } from './signups.service.server'

const ZONE = DEMO_SITE_SETTINGS.timeZone
const SITE = { siteName: 'Hearts of Hope', timeZone: ZONE }
const ORIGIN = 'https://charity.example'
const firstDate = addDays(todayIn(ZONE), 7)
const secondDate = addDays(firstDate, 7)
let client = 0

beforeEach(async () => {
  await saveSiteSettings({ ...DEMO_SITE_SETTINGS }, { actor: { id: 'test' } })
})

function weeklyEvent(signups: Record<string, unknown>) {
  return createWeeklyEvent(firstDate, { takesSignups: true, signupContact: 'email', ...signups })
}

function signUp(slug: string, fields: Record<string, unknown>, now?: Date): Promise<SignUpOutcome> {
  // Each call from an address and an e-mail address of its own: the per-address throttle has its own test over HTTP.
  const n = ++client
  const input = SignUpSchema.parse({ date: firstDate, name: 'Visitor', email: `visitor${n}@example.com`, ...fields })
  return signUpForEvent(slug, input, {
    clientKey: `198.51.100.${n % 250}`,
    site: SITE,
    origin: ORIGIN,
    phoneCountryCode: '1268',
    now,
  })
}

const statuses = async (date: string) =>
  (await db.selectFrom('eventSignups').select(['name', 'status']).where('date', '=', date).orderBy('createdAt').execute()).map(
    (r) => `${r.name} ${r.status}`,
  )

const queuedKeys = async () =>
  (await db.selectFrom('outgoingEmails').select('dedupeKey').execute())
    .map((r) => r.dedupeKey!.replace(/:[\w-]{36}:/, ':*:'))
    .sort()

describe('signing up for an event', () => {
  it('never confirms more than the limit, however many sign up at once; the rest wait in line', async () => {
    const { slug } = await weeklyEvent({ signupLimit: 5 })
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, n) => signUp(slug, { name: `Person ${n}` })))
    expect(outcomes.every((o) => o.outcome === 'signed-up')).toBe(true)
    const list = await statuses(firstDate)
    expect(list.filter((s) => s.endsWith('confirmed'))).toHaveLength(5)
    expect(list.filter((s) => s.endsWith('waiting'))).toHaveLength(15)
    // Another date of the series has places of its own.
    expect(await signUp(slug, { date: secondDate })).toMatchObject({ outcome: 'signed-up', status: 'confirmed' })
  })

  it('counts a party as its size, and gives a freed place to the first in line, who is told', async () => {
    const { slug } = await weeklyEvent({ signupLimit: 3, signupAsksPartySize: true })
    const family = await signUp(slug, { name: 'Family', partySize: 3 })
    await signUp(slug, { name: 'Ann' })
    await signUp(slug, { name: 'Ben', partySize: 2 })
    expect(await statuses(firstDate)).toEqual(['Family confirmed', 'Ann waiting', 'Ben waiting'])
    expect(await signUp(slug, { name: 'Crowd', partySize: 4 })).toMatchObject({
      field: 'partySize',
      message: SIGNUP_MESSAGES.partyTooLarge,
    })

    if (family.outcome !== 'signed-up') throw new Error('not signed up')
    const removed = await cancelSignup(family.token, SITE)
    expect(removed?.promoted.map((p) => p.name)).toEqual(['Ann', 'Ben'])
    expect(await statuses(firstDate)).toEqual(['Ann confirmed', 'Ben confirmed'])
    // The family's e-mails went with it; Ann and Ben got the waiting list's and then the place's.
    expect(await queuedKeys()).toEqual(['signup:*:promoted', 'signup:*:promoted', 'signup:*:waiting', 'signup:*:waiting'])
    expect(await cancelSignup(family.token, SITE)).toBeNull()
  })

  it('gives freed places to everyone in line whose party fits, in order, past a party too large for them', async () => {
    const { slug } = await weeklyEvent({ signupLimit: 4, signupAsksPartySize: true })
    const first = await signUp(slug, { name: 'Pair', partySize: 2 })
    await signUp(slug, { name: 'Duo', partySize: 2 })
    for (const [name, partySize] of [
      ['Trio', 3],
      ['Solo', 1],
      ['Twins', 2],
      ['Single', 1],
    ] as const) {
      await signUp(slug, { name, partySize })
    }
    if (first.outcome !== 'signed-up') throw new Error('not signed up')
    const removed = await cancelSignup(first.token, SITE)
    expect(removed?.promoted.map((p) => p.name)).toEqual(['Solo', 'Single'])
    expect(await statuses(firstDate)).toEqual([
      'Duo confirmed',
      'Trio waiting',
      'Solo confirmed',
      'Twins waiting',
      'Single confirmed',
    ])
  })

  it('gives the places of a raised limit to the waiting list, in order', async () => {
    const values = { signupLimit: 1 }
    const { id, slug } = await weeklyEvent(values)
    for (const name of ['Gil', 'Hal', 'Ida']) await signUp(slug, { name })
    await updateEvent(id, weeklyEventInput(firstDate, { takesSignups: true, signupLimit: 2 }), ZONE)
    expect(await promoteAfterFormChange(id, SITE)).toBe(1)
    expect(await statuses(firstDate)).toEqual(['Gil confirmed', 'Hal confirmed', 'Ida waiting'])
  })

  it('keeps the order of sign-ups taken within one millisecond', async () => {
    const values = { signupLimit: 1 }
    const { id, slug } = await weeklyEvent(values)
    const sameInstant = new Date()
    for (const name of ['Jo', 'Kim', 'Lee', 'Max', 'Ned', 'Oda']) await signUp(slug, { name }, sameInstant)
    await updateEvent(id, weeklyEventInput(firstDate, { takesSignups: true, signupLimit: 4 }), ZONE)
    expect(await promoteAfterFormChange(id, SITE)).toBe(3)
    expect(await statuses(firstDate)).toEqual([
      'Jo confirmed',
      'Kim confirmed',
      'Lee confirmed',
      'Max confirmed',
      'Ned waiting',
      'Oda waiting',
    ])
  })

  it('takes sign-ups for the last places while an administrator saves the event, without failing either', async () => {
    const { id, slug } = await weeklyEvent({ signupLimit: 3 })
    const saves = [4, 5, 6].map((signupLimit) =>
      updateEvent(id, weeklyEventInput(firstDate, { takesSignups: true, signupContact: 'email', signupLimit }), ZONE),
    )
    const signUps = Array.from({ length: 8 }, (_, n) => signUp(slug, { name: `Person ${n}` }))
    const results = await Promise.allSettled([...saves, ...signUps])
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    expect(await statuses(firstDate)).toHaveLength(8)
  })

  it('sends the confirmation with the date as an .ics file and the link to cancel', async () => {
    const { slug } = await weeklyEvent({})
    const outcome = await signUp(slug, { name: 'Dora', email: 'visitor@example.com' })
    if (outcome.outcome !== 'signed-up') throw new Error('not signed up')
    const email = await db.selectFrom('outgoingEmails').selectAll().executeTakeFirstOrThrow()
    expect(email.toAddress).toBe('visitor@example.com')
    expect(email.textBody).toContain(`${ORIGIN}/signups/${outcome.token}`)
    const [ics] = JSON.parse(email.attachments!) as { filename: string; content: string }[]
    expect(ics.filename).toBe('event.ics')
    expect(ics.content).toContain(`DTSTART;TZID=${ZONE}:${firstDate.replaceAll('-', '')}T090000`)
    expect(ics.content).not.toContain('RRULE')
  })

  it('asks for what the event needs, and refuses closed dates and dates the event does not have', async () => {
    const { slug } = await weeklyEvent({ signupContact: 'whatsapp', signupClosesHoursBefore: 24 * 8 })
    expect(await signUp(slug, { date: secondDate })).toMatchObject({ field: 'whatsapp', message: SIGNUP_MESSAGES.whatsappNeeded })
    expect(await signUp(slug, { date: firstDate, whatsapp: '+1 268 555 0100' })).toMatchObject({
      message: SIGNUP_MESSAGES.closed,
    })
    expect(await signUp(slug, { date: addDays(firstDate, 1), whatsapp: '+1 268 555 0100' })).toMatchObject({
      message: SIGNUP_MESSAGES.noSuchDate,
    })
    expect(await signUp(slug, { date: secondDate, whatsapp: '+1 268 555 0100' })).toMatchObject({ outcome: 'signed-up' })
  })

  it('takes one sign-up per date and contact, even from parallel posts, and answers a repeat as a new one', async () => {
    const { slug } = await weeklyEvent({ signupContact: 'either' })
    const twice = await Promise.all([
      signUp(slug, { name: 'Jo', email: 'jo@example.com' }),
      signUp(slug, { name: 'Jo again', email: 'JO@Example.com' }),
    ])
    // Both are told they are signed up, each with a page of their own: nobody learns who attends.
    expect(twice.map((o) => o.outcome)).toEqual(['signed-up', 'signed-up'])
    const [first, second] = twice as Extract<SignUpOutcome, { outcome: 'signed-up' }>[]
    expect(first.token).not.toBe(second.token)
    expect(await statuses(firstDate)).toHaveLength(1)
    // The person already signed up is told once; nothing goes to the address twice as a new sign-up.
    expect(await queuedKeys()).toEqual(['signup:*:confirmed', 'signup:*:repeated'])

    expect(await signUp(slug, { name: 'Kim', email: undefined, whatsapp: '+1 268 555 0100' })).toMatchObject({
      outcome: 'signed-up',
    })
    const kimAgain = await signUp(slug, { name: 'Kim?', email: 'stranger@example.com', whatsapp: '+1 (268) 555-0100' })
    expect(kimAgain).toMatchObject({ outcome: 'signed-up', status: 'confirmed' })
    expect(await statuses(firstDate)).toHaveLength(2)
    // A new address given with a number already signed up gets what a new sign-up would.
    expect(await queuedKeys()).toEqual(['signup:*:confirmed', 'signup:*:confirmed', 'signup:*:repeated'])
    // The repeat's own page shows it like a new one, and cancelling it leaves the real one.
    const own = await getSignupByToken((kimAgain as { token: string }).token)
    expect(own).toMatchObject({ name: 'Kim?', status: 'confirmed', partySize: 1 })
    expect(await cancelSignup((kimAgain as { token: string }).token, SITE)).toMatchObject({ date: firstDate, promoted: [] })
    expect(await getSignupByToken((kimAgain as { token: string }).token)).toBeNull()
    expect(await statuses(firstDate)).toContain('Kim confirmed')
    // Another date is another sign-up.
    expect(await signUp(slug, { date: secondDate, email: 'jo@example.com' })).toMatchObject({ outcome: 'signed-up' })
    expect(await statuses(secondDate)).toHaveLength(1)
  })

  it('takes sign-ups only for dates up to the horizon ahead', async () => {
    const { slug } = await weeklyEvent({})
    // The first date is a week from today; the last weekly date within the horizon:
    const lastOpen = addDays(firstDate, Math.floor((SIGNUP_DAYS_AHEAD - 7) / 7) * 7)
    expect(await signUp(slug, { date: lastOpen })).toMatchObject({ outcome: 'signed-up' })
    expect(await signUp(slug, { date: addDays(lastOpen, 7) })).toMatchObject({
      field: 'date',
      message: SIGNUP_MESSAGES.tooFarAhead,
    })
    expect(await statuses(addDays(lastOpen, 7))).toEqual([])
  })

  it('queues the reminder once, the day before, for the confirmed who gave an e-mail address', async () => {
    const { slug } = await weeklyEvent({ signupLimit: 1 })
    await signUp(slug, { name: 'Eve' })
    await signUp(slug, { name: 'Fay' }) // waiting: no reminder
    await db.deleteFrom('outgoingEmails').execute()
    const twoDaysBefore = instantIn(addDays(firstDate, -2), '10:00', ZONE)
    const dayBefore = instantIn(addDays(firstDate, -1), '10:00', ZONE)
    expect(await queueDueReminders(twoDaysBefore)).toEqual({ queued: 0, more: false })
    expect(await queueDueReminders(dayBefore)).toEqual({ queued: 1, more: false })
    // Forgetting the mark, as a pass in another process might race: the dedupe key still holds.
    await db.updateTable('eventSignups').set({ reminderQueuedAt: null }).execute()
    expect(await queueDueReminders(dayBefore)).toEqual({ queued: 0, more: false })
    expect(await queuedKeys()).toEqual(['signup:*:reminder'])
  })
  it('leaves the reminder for the next pass when the outgoing mail refuses it', async () => {
    const { slug } = await weeklyEvent({})
    await signUp(slug, { name: 'Gus' })
    await db.deleteFrom('outgoingEmails').execute()
    const dayBefore = instantIn(addDays(firstDate, -1), '10:00', ZONE)
    const limit = env.OUTGOING_EMAILS_MAX_WAITING
    env.OUTGOING_EMAILS_MAX_WAITING = 0
    try {
      expect(await queueDueReminders(dayBefore)).toEqual({ queued: 0, more: false })
    } finally {
      env.OUTGOING_EMAILS_MAX_WAITING = limit
    }
    expect(await db.selectFrom('eventSignups').select('reminderQueuedAt').execute()).toEqual([{ reminderQueuedAt: null }])
    expect(await queueDueReminders(dayBefore)).toEqual({ queued: 1, more: false })
    expect(await queuedKeys()).toEqual(['signup:*:reminder'])
  })
  it('deletes the e-mails to the people signed up with an event deleted for good, and only theirs', async () => {
    const deleted = await weeklyEvent({})
    const kept = await weeklyEvent({})
    await signUp(deleted.slug, { name: 'Hugo' })
    await signUp(deleted.slug, { name: 'Iris', date: secondDate })
    await signUp(kept.slug, { name: 'Jack' })
    expect(await queuedKeys()).toHaveLength(3)
    await deleteEvent(deleted.id)
    expect(await db.selectFrom('outgoingEmails').select('toAddress').execute()).toEqual([
      { toAddress: expect.stringMatching(/^visitor\d+@example.com$/) },
    ])
    expect(await statuses(firstDate)).toEqual(['Jack confirmed'])
  })
  it('gives the places to the next in line when the one promoted cancels at the same moment', async () => {
    // Cancelling the confirmed promotes the first in line while they cancel too: whichever runs
    // first, the second sees the other's outcome, and the last in line gets the place.
    for (let round = 0; round < 8; round++) {
      await db.deleteFrom('eventSignups').execute()
      const { slug } = await weeklyEvent({ signupLimit: 1 })
      const tokens = []
      for (const name of ['Kai', 'Lea', 'Max']) {
        const outcome = await signUp(slug, { name })
        if (outcome.outcome !== 'signed-up') throw new Error('not signed up')
        tokens.push(outcome.token)
      }
      await Promise.all([cancelSignup(tokens[0], SITE), cancelSignup(tokens[1], SITE)])
      expect(await statuses(firstDate)).toEqual(['Max confirmed'])
    }
  })
  it("finds a sign-up's e-mails through the index on their keys, not by reading every e-mail", async () => {
    const rows = await db.transaction().execute(async (trx) => {
      // The tables of a test are tiny: PostgreSQL is asked for the plan it has for a large one.
      if (dialectName === 'postgres') await sql`set local enable_seqscan = off`.execute(trx)
      const explain = sql.raw(dialectName === 'sqlite' ? 'explain query plan' : 'explain')
      return (await sql`${explain} select id from outgoing_emails where ${signupEmailKeys('some-id')}`.execute(trx)).rows
    })
    expect(JSON.stringify(rows)).toMatch(
      dialectName === 'sqlite' ? /SEARCH outgoing_emails USING INDEX/ : /Index.*outgoing_emails_dedupe_key_bytes/,
    )
  })
})
