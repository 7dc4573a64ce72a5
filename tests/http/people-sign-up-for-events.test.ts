import { afterAll, describe, expect, it } from 'vitest'
import { addDays, instantIn, todayIn } from '../../app/platform/dates'
import { MailCatcher, type CaughtMail } from '../fixtures/mail-catcher'
import { createFakeClock } from '../setup/fake-clock'
import { get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// Visitors sign up for one date of a weekly event with 5 places, through the real server and a
// real mail server: capacity holds under 20 parallel posts, a cancellation promotes the first in
// line, and the reminder the day before is sent once, whichever process and pass queues it.
const ZONE = 'America/Antigua'
const firstDate = addDays(todayIn(ZONE), 7)
const mail = new MailCatcher()
await mail.start()
const clock = createFakeClock()
const env = { SMTP_URL: mail.url, TRUST_PROXY: 'true', OUTGOING_EMAILS_PER_SECOND: '200', ...clock.env }
const server = await startTestServer(env)
const others: TestServer[] = []
const admin = await signIn(server)

afterAll(async () => {
  for (const other of others) await other.stop()
  await server.stop()
  await mail.stop()
})

const eventPath = `/calendar/food-bank-shift?date=${firstDate}`
let client = 0
const signUp = (fields: Record<string, string>, address = `198.51.100.${++client}`) =>
  post(server, eventPath, { date: firstDate, name: 'Visitor', email: 'visitor@example.com', ...fields }, undefined, {
    'x-forwarded-for': address,
  })

async function mailsSoon(count: number, subject: RegExp): Promise<CaughtMail[]> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const found = mail.mails.filter((m) => subject.test(m.parsed.subject ?? ''))
    if (found.length >= count || Date.now() > deadline) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('sign-ups for an event', () => {
  it('are turned on in the event form by an administrator', async () => {
    const saved = await post(
      server,
      '/admin/events/new',
      {
        title: 'Food bank shift',
        description: 'Sorting and handing out groceries.',
        location: 'Ministry Centre',
        type: 'event',
        startDate: firstDate,
        startTime: '09:00',
        endTime: '12:00',
        repeat: 'weekly',
        repeatEnds: 'never',
        takesSignups: 'on',
        signupLimit: '5',
        signupContact: 'email',
        signupClosesHoursBefore: '0',
        publish: 'now',
      },
      admin,
    )
    expect(saved.status).toBe(302)
    const page = await (await get(server, eventPath)).text()
    expect(page).toContain('5 places left.')
    expect(page).not.toContain('data-admin-bar')
  })

  it('never confirm more than the places, from 20 parallel requests; the others join the waiting list', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => signUp({ name: `Person ${n}`, email: `person${n}@example.com` })),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(303))
    const rows = await queryServerDatabase<{ status: string; count: number }>(
      server,
      `select status, count(*) as count from event_signups where date = '${firstDate}' group by status order by status`,
    )
    expect(rows.map((r) => [r.status, Number(r.count)])).toEqual([
      ['confirmed', 5],
      ['waiting', 15],
    ])
    const page = await (await get(server, eventPath)).text()
    expect(page).toContain('This date is full. Sign up to join the waiting list.')
    expect(await mailsSoon(5, /^You are signed up/)).toHaveLength(5)
    expect(await mailsSoon(15, /^On the waiting list/)).toHaveLength(15)
  })

  it('show each person their own sign-up by its secret link, with the date attached to the confirmation', async () => {
    const [confirmation] = await mailsSoon(1, /^You are signed up/)
    const link = /\/signups\/[\w-]{43}/.exec(confirmation.parsed.text ?? '')![0]
    const page = await get(server, link)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(await page.text()).toContain('You are signed up. See you there!')
    const [ics] = confirmation.parsed.attachments
    expect(ics.contentType).toBe('text/calendar')
    expect(ics.content.toString()).toContain(`DTSTART;TZID=${ZONE}:${firstDate.replaceAll('-', '')}T090000`)
    expect((await get(server, '/signups/not-a-real-link')).status).toBe(404)
  })

  it('give a cancelled place to the first on the waiting list, who is told', async () => {
    const [confirmation] = await mailsSoon(1, /^You are signed up/)
    const link = /\/signups\/[\w-]{43}/.exec(confirmation.parsed.text ?? '')![0]
    const [first] = await queryServerDatabase<{ email: string }>(
      server,
      `select email from event_signups where status = 'waiting' order by created_at, id limit 1`,
    )
    const cancelled = await post(server, link, {})
    expect(cancelled.status).toBe(302)
    expect((await get(server, link)).status).toBe(404)
    const [promoted] = await mailsSoon(1, /^A place became free/)
    expect(promoted.recipients).toEqual([first.email])
    const rows = await queryServerDatabase<{ count: number }>(
      server,
      `select count(*) as count from event_signups where status = 'confirmed' and date = '${firstDate}'`,
    )
    expect(Number(rows[0].count)).toBe(5)
  })

  it('refuse what is missing in plain words, ignore bots, and throttle one address', async () => {
    const noEmail = await signUp({ email: '' })
    expect(noEmail.status).toBe(409)
    expect(await noEmail.text()).toContain('Please enter your e-mail address')
    const bot = await signUp({ website: 'http://spam.example' })
    expect(bot.status).toBe(303)
    expect(bot.headers.get('location')).toBe(eventPath)
    const answers: number[] = []
    for (let n = 0; n < 11; n++) {
      answers.push((await signUp({ name: `Repeat ${n}`, email: `repeat${n}@example.com` }, '203.0.113.9')).status)
    }
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(303))
    expect(answers[10]).toBe(429)
  })

  it('take one sign-up per date and e-mail address, and only for dates up to 120 days ahead', async () => {
    const [person] = await queryServerDatabase<{ email: string }>(
      server,
      `select email from event_signups where status = 'waiting' order by created_at, id limit 1`,
    )
    // Answered as a new sign-up, so that nobody learns who attends; the person is told by e-mail.
    const again = await signUp({ name: 'Again', email: person.email.toUpperCase() })
    expect(again.status).toBe(303)
    expect(again.headers.get('location')).toMatch(/^\/signups\//)
    const told = await mailsSoon(1, /^You are already signed up/)
    expect(told.map((m) => m.recipients)).toEqual([[person.email]])
    const farDate = addDays(firstDate, 7 * 18)
    const far = await post(
      server,
      `/calendar/food-bank-shift?date=${farDate}`,
      { date: farDate, name: 'Early bird', email: 'early@example.com' },
      undefined,
      { 'x-forwarded-for': '198.51.100.250' },
    )
    expect(far.status).toBe(409)
    expect(await far.text()).toContain('Sign-ups for a date open 120 days before it.')
    // The page of that date says so instead of offering the form.
    const farPage = await (await get(server, `/calendar/food-bank-shift?date=${farDate}`)).text()
    expect(farPage).toContain('Sign-ups for a date open 120 days before it.')
    expect(farPage).not.toContain('name="partySize"')
    expect(farPage).not.toContain('name="name"')
    const rows = await queryServerDatabase<{ count: number }>(
      server,
      `select count(*) as count from event_signups where lower(email) = '${person.email}' or date = '${farDate}'`,
    )
    expect(Number(rows[0].count)).toBe(1)
  })

  it('are listed per date for administrators, downloaded as CSV, written to and deleted for good', async () => {
    const [event] = await queryServerDatabase<{ id: string }>(server, `select id from events where slug = 'food-bank-shift'`)
    const html = await (await get(server, `/admin/events/${event.id}/signups?date=${firstDate}`, admin)).text()
    const list = html.replaceAll('<!-- -->', '')
    expect(list).toContain('5 people confirmed, 24 on the waiting list')
    const csv = await get(server, `/admin/events/${event.id}/signups.csv?date=${firstDate}`, admin)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect((await csv.text()).split('\r\n')[0]).toBe('Name,E-mail,WhatsApp,People,Status,Signed up (America/Antigua time)')
    const messaged = await post(
      server,
      `/admin/events/${event.id}/signups?date=${firstDate}`,
      { intent: 'message', subject: 'Bring gloves', body: 'Please bring gloves on Tuesday.' },
      admin,
    )
    expect(messaged.status).toBe(302)
    const messages = await mailsSoon(5, /^Bring gloves$/)
    expect(messages).toHaveLength(5)
    // The list follows the message's sending.
    const following = await (await get(server, messaged.headers.get('location')!, admin)).text()
    const [, sent, queued, failed] = /Your message: (\d+) sent, (\d+) waiting to be sent, (\d+) failed\./.exec(
      following.replaceAll('<!-- -->', ''),
    )!
    expect([Number(sent) + Number(queued), Number(failed)]).toEqual([5, 0])
    expect(messages[0].parsed.text).toMatch(/Please bring gloves on Tuesday\.[\s\S]*\/signups\/[\w-]{43}/)
    const [one] = await queryServerDatabase<{ id: string; email: string }>(
      server,
      `select id, email from event_signups where status = 'confirmed' order by created_at limit 1`,
    )
    const deleted = await post(
      server,
      `/admin/events/${event.id}/signups?date=${firstDate}`,
      { intent: 'delete', id: one.id },
      admin,
    )
    expect(deleted.status).toBe(302)
    expect(await queryServerDatabase(server, `select id from event_signups where id = '${one.id}'`)).toEqual([])
    expect(
      await queryServerDatabase(server, `select id from outgoing_emails where dedupe_key like 'signup:${one.id}:%'`),
    ).toEqual([])
    expect((await get(server, `/admin/events/${event.id}/signups`)).status).not.toBe(200)
  })
  it('send the reminder the day before once, whichever process queues it', async () => {
    const confirmed = await queryServerDatabase<{ count: number }>(
      server,
      `select count(*) as count from event_signups where status = 'confirmed' and date = '${firstDate}'`,
    )
    clock.setAhead(instantIn(addDays(firstDate, -1), '10:00', ZONE).getTime() - Date.now())
    // A server starting runs a pass of the reminders at once; two of them on one database.
    others.push(await startTestServer(env, { sharedDatabase: server.database }))
    others.push(await startTestServer(env, { sharedDatabase: server.database }))
    const reminders = await mailsSoon(Number(confirmed[0].count), /^Tomorrow:/)
    expect(reminders).toHaveLength(Number(confirmed[0].count))
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    expect(mail.mails.filter((m) => /^Tomorrow:/.test(m.parsed.subject ?? ''))).toHaveLength(Number(confirmed[0].count))
    expect(new Set(reminders.map((m) => m.recipients[0])).size).toBe(reminders.length)
    clock.setAhead(0)
  })
})
