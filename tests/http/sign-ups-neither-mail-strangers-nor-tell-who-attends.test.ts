import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, todayIn } from '../../app/platform/dates'
import { MailCatcher } from '../fixtures/mail-catcher'
import { get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// The sign-up form of an event is open to anyone, and each sign-up e-mails the address given,
// which nobody proved to be theirs: the e-mails hold none of the visitor's words, one address gets
// the e-mails of at most five sign-ups a week, and a contact already signed up is answered exactly
// as a new one, so the form tells nobody who attends (a survivors' group, a youth event).
const firstDate = addDays(todayIn('America/Antigua'), 7)
const eventPath = `/calendar/support-group?date=${firstDate}`
const mail = new MailCatcher()
let server: TestServer
let client = 0

beforeAll(async () => {
  await mail.start()
  server = await startTestServer({ SMTP_URL: mail.url, TRUST_PROXY: 'true', OUTGOING_EMAILS_PER_SECOND: '200' })
  const saved = await post(
    server,
    '/admin/events/new',
    {
      title: 'Support group',
      description: 'An evening together.',
      location: 'Ministry Centre',
      type: 'event',
      startDate: firstDate,
      startTime: '18:00',
      endTime: '20:00',
      repeat: 'none',
      takesSignups: 'on',
      signupContact: 'either',
      signupClosesHoursBefore: '0',
      publish: 'now',
    },
    await signIn(server),
  )
  expect(saved.status).toBe(302)
})

afterAll(async () => {
  await server?.stop()
  await mail.stop()
})

const signUp = (fields: Record<string, string>) =>
  post(server, eventPath, { date: firstDate, ...fields }, undefined, { 'x-forwarded-for': `198.51.100.${++client}` })

const mailsTo = (address: string) => mail.mails.filter((m) => m.recipients.includes(address))

/** A page as any visitor gets it, without what differs between two answers anyway (its nonce, its own address). */
async function pageAt(location: string): Promise<{ status: number; html: string }> {
  const page = await get(server, location)
  const html = (await page.text()).replace(/nonce="[^"]*"/g, 'nonce=""').replaceAll(location, '/signups/…')
  return { status: page.status, html }
}

describe('a sign-up', () => {
  it('e-mails the address given without a word the visitor typed', async () => {
    const lure = 'Your account is locked, log in at http://evil.example/now'
    const answer = await signUp({ name: lure, email: 'someone.else@example.org' })
    expect(answer.status).toBe(303)
    await expect.poll(() => mailsTo('someone.else@example.org').length, { timeout: 10_000 }).toBe(1)
    const [sent] = mailsTo('someone.else@example.org')
    expect(sent.parsed.subject).toBe('You are signed up: Support group')
    expect(sent.parsed.text).toMatch(/^Hello,/)
    expect(sent.raw).not.toContain('evil.example')
    expect(sent.raw).not.toContain('account is locked')
  })

  it('answers a contact already signed up exactly as a new one, and tells the person signed up', async () => {
    const real = await signUp({ name: 'Rosa', email: 'rosa@example.org', whatsapp: '+1 268 555 0199' })
    expect(real.status).toBe(303)
    await expect.poll(() => mailsTo('rosa@example.org').length, { timeout: 10_000 }).toBe(1)

    // Someone tries whether Rosa attends, by her number in another spelling and by her address;
    // a person never signed up is asked the same way.
    // As dialled in Antigua, with the area code or without it, the number is hers too.
    const byNumber = await signUp({ name: 'Curious', whatsapp: '+1 (268) 555-0199' })
    const byLocalNumber = await signUp({ name: 'Curious', whatsapp: '(268) 555-0199' })
    const byShortNumber = await signUp({ name: 'Curious', whatsapp: '555 0199' })
    const byAddress = await signUp({ name: 'Curious', email: 'ROSA@example.org' })
    const stranger = await signUp({ name: 'Curious', whatsapp: '+1 268 555 0111' })
    const answers = [byNumber, byLocalNumber, byShortNumber, byAddress, stranger]
    for (const answer of answers) {
      expect(answer.status).toBe(303)
      expect(answer.headers.get('location')).toMatch(/^\/signups\/[\w-]{20,}$/)
    }
    const pages = await Promise.all(answers.map((a) => pageAt(a.headers.get('location')!)))
    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200])
    for (const page of pages) expect(page.html).toBe(pages[4].html)
    expect(pages[0].html).toContain('You are signed up. See you there!')

    // Rosa holds one place and is told once (not a second confirmation), with her own link.
    // (The one 'Curious' on the list is the person never signed up before.)
    const rows = await queryServerDatabase(
      server,
      `select name from event_signups where name in ('Rosa', 'Curious') order by name`,
    )
    expect(rows).toEqual([{ name: 'Curious' }, { name: 'Rosa' }])
    await expect.poll(() => mailsTo('rosa@example.org').length, { timeout: 10_000 }).toBe(2)
    const told = mailsTo('rosa@example.org')[1]
    expect(told.parsed.subject).toBe('You are already signed up: Support group')
    expect(told.parsed.text).toContain('nothing has changed')
    const realLink = `/signups/${real.headers.get('location')!.split('/').pop()}`
    expect(told.parsed.text).toContain(realLink)

    // Cancelling the repeat leaves Rosa's sign-up as it was.
    const cancelled = await post(server, byNumber.headers.get('location')!, {})
    expect(cancelled.status).toBe(302)
    expect((await get(server, realLink)).status).toBe(200)
    expect((await get(server, byNumber.headers.get('location')!)).status).toBe(404)
  })

  it('refuses a WhatsApp number that is no number, saying how to write it, and keeps nothing', async () => {
    const refused = await signUp({ name: 'Typo', whatsapp: '+1 123 555 0199' })
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('Please enter a valid WhatsApp number, with its country code if it is not a local one')
    expect(await queryServerDatabase(server, `select id from event_signups where name = 'Typo'`)).toEqual([])
  })

  it('e-mails one address for at most five sign-ups a week, however many clients send them', async () => {
    const answers: number[] = []
    for (let n = 0; n < 7; n++) answers.push((await signUp({ name: `Flood ${n}`, email: 'flooded@example.org' })).status)
    expect(answers).toEqual([303, 303, 303, 303, 303, 409, 409])
    const refused = await signUp({ name: 'Flood again', email: 'Flooded@Example.org' })
    expect(await refused.text()).toContain('This e-mail address has been given for many sign-ups this week.')
    // The first signed up; the next four were repeats of it, of which the person is told once.
    await expect.poll(() => mailsTo('flooded@example.org').length, { timeout: 10_000 }).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(mailsTo('flooded@example.org').map((m) => m.parsed.subject)).toEqual([
      'You are signed up: Support group',
      'You are already signed up: Support group',
    ])
  })
})
