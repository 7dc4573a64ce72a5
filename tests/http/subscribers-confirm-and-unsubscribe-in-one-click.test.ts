import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MailCatcher, type CaughtMail } from '../fixtures/mail-catcher'
import { get, post, signIn } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'
import { queryServerDatabase } from '../setup/server-database'

// Double opt-in and RFC 8058 one-click unsubscribe over HTTP, with a real SMTP server catching the mail.
const mail = new MailCatcher()
let server: TestServer
let clientCount = 0

/** A client address of its own (the server trusts X-Forwarded-For here), so the sign-up throttle does not mix. */
function newClient(): Record<string, string> {
  clientCount++
  return { 'x-forwarded-for': `198.51.100.${clientCount}` }
}

beforeAll(async () => {
  await mail.start()
  server = await startTestServer({ SMTP_URL: mail.url, TRUST_PROXY: 'true', OUTGOING_EMAILS_PER_SECOND: '50' })
})

afterAll(async () => {
  await server?.stop()
  await mail.stop()
})

function signUp(fields: Record<string, string>, client = newClient()) {
  return post(server, '/subscribe', fields, undefined, client)
}

async function stateOf(email: string): Promise<string | undefined> {
  const rows = await queryServerDatabase<{ state: string }>(server, `select state from subscribers where email = '${email}'`)
  return rows[0]?.state
}

function mailsTo(address: string): CaughtMail[] {
  return mail.mails.filter((m) => m.recipients.includes(address))
}

async function waitForMails(address: string, count: number): Promise<CaughtMail[]> {
  await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(count)
  return mailsTo(address)
}

function linkIn(text: string, kind: string): string {
  const link = text.match(new RegExp(`https?://\\S+/subscribe/${kind}/[\\w-]+`))?.[0]
  if (!link) throw new Error(`No ${kind} link in:\n${text}`)
  return new URL(link).pathname
}

describe('signing up for e-mail updates', () => {
  it('sends only a confirmation until the link is followed and its button pressed', async () => {
    const signedUp = await signUp({ email: 'Ann@Example.org', firstName: 'Ann', topics: 'news' })
    expect(signedUp.status).toBe(303)
    expect(signedUp.headers.get('location')).toBe('/subscribe#signed-up')
    const thanks = await get(server, '/subscribe', signedUp.headers.getSetCookie()[0].split(';')[0])
    expect(await thanks.text()).toContain('Please check your inbox')

    const [confirmation] = await waitForMails('ann@example.org', 1)
    expect(confirmation.parsed.subject).toBe('Please confirm your subscription')
    expect(confirmation.parsed.html).not.toContain('Ann') // the form's words never reach the address
    expect(confirmation.raw).not.toContain('List-Unsubscribe')
    expect(await stateOf('ann@example.org')).toBe('pending')

    // Opening the link (a mail scanner, say) confirms nothing, and no cache keeps the page.
    const path = linkIn(confirmation.parsed.text!, 'confirm')
    const opened = await get(server, path)
    expect(opened.status).toBe(200)
    expect(opened.headers.get('cache-control')).toBe('private, no-store')
    expect(await opened.text()).toContain('Confirm my subscription')
    expect(await stateOf('ann@example.org')).toBe('pending')

    const confirmed = await post(server, path, {})
    expect(confirmed.status).toBe(200)
    expect(await confirmed.text()).toContain('You are subscribed')
    expect(await stateOf('ann@example.org')).toBe('confirmed')
    // A second press says it is done already.
    const again = await post(server, path, {})
    expect(again.status).toBe(200)
    expect(await again.text()).toContain('You had confirmed already')
  })

  it('answers the same whether or not the address is subscribed, and never mails it more than once an hour', async () => {
    const first = await signUp({ email: 'bob@example.org', topics: 'events' })
    const again = await signUp({ email: 'bob@example.org', topics: 'events' })
    const known = await signUp({ email: 'ann@example.org', topics: 'events' })
    for (const answer of [first, again, known]) {
      expect(answer.status).toBe(303)
      expect(answer.headers.get('location')).toBe('/subscribe#signed-up')
    }
    await waitForMails('bob@example.org', 1)
    const [, note] = await waitForMails('ann@example.org', 2)
    expect(note.parsed.subject).toBe('You are already subscribed')
    // A signed-up person's topics are not changed by a form anyone can send.
    const [row] = await queryServerDatabase<{ topics: string }>(
      server,
      `select topics from subscribers where email = 'ann@example.org'`,
    )
    expect(row.topics).toBe('news')
  })

  it('refuses bad input with a plain message and stores nothing; a bot filling the hidden field is ignored', async () => {
    const bad = await signUp({ email: 'not an address', topics: 'news' })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Please enter a valid e-mail address')
    const noTopics = await signUp({ email: 'carol@example.org' })
    expect(noTopics.status).toBe(400)
    expect(await noTopics.text()).toContain('Please choose at least one topic')
    const bot = await signUp({ email: 'bot@example.org', topics: 'news', website: 'http://spam.example' })
    expect(bot.status).toBe(303)
    expect(await stateOf('carol@example.org')).toBeUndefined()
    expect(await stateOf('bot@example.org')).toBeUndefined()
  })

  it('throttles sign-ups from one client', async () => {
    const client = newClient()
    for (let i = 0; i < 10; i++)
      expect((await signUp({ email: `many${i}@example.org`, topics: 'news' }, client)).status).toBe(303)
    const refused = await signUp({ email: 'many10@example.org', topics: 'news' }, client)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await stateOf('many10@example.org')).toBeUndefined()
  })
})

describe('unsubscribing', () => {
  it('works by one POST of the List-Unsubscribe address, without a session or an Origin (RFC 8058)', async () => {
    const [, note] = mailsTo('ann@example.org')
    expect(note.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    // Long headers are folded onto several lines.
    const header = note.raw.replace(/\r\n[ \t]+/g, '').match(/^List-Unsubscribe:\s*<([^>]+)>/m)?.[1]
    expect(header).toBeDefined()
    expect(new URL(header!).pathname).toBe(linkIn(note.parsed.text!, 'unsubscribe'))

    const response = await fetch(header!, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(await stateOf('ann@example.org')).toBe('unsubscribed')
    // The topics page of an unsubscribed person shows nothing.
    expect((await get(server, linkIn(note.parsed.text!, 'topics'))).status).toBe(410)
  })

  it('works by the same POST from a mail program in a web page, which sends its Origin; never by a GET', async () => {
    await signUp({ email: 'dora@example.org', topics: 'news' })
    const [confirmation] = await waitForMails('dora@example.org', 1)
    expect((await post(server, linkIn(confirmation.parsed.text!, 'confirm'), {})).status).toBe(200)
    await signUp({ email: 'dora@example.org', topics: 'news' })
    const [, note] = await waitForMails('dora@example.org', 2)
    const address = new URL(linkIn(note.parsed.text!, 'unsubscribe'), server.url).href

    // Following the link (a mail scanner, say) only shows the button.
    expect((await fetch(address)).status).toBe(200)
    expect(await stateOf('dora@example.org')).toBe('confirmed')
    const webMail = { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://webmail.example.net' }
    // Any other POST from another site is still refused.
    const elsewhere = await fetch(`${server.url}/subscribe`, {
      method: 'POST',
      redirect: 'manual',
      headers: webMail,
      body: 'email=eve%40example.org&topics=news',
    })
    expect(elsewhere.status).toBe(403)
    const response = await fetch(address, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...webMail, 'sec-fetch-site': 'cross-site' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(response.status).toBe(200)
    expect(await stateOf('dora@example.org')).toBe('unsubscribed')
  })

  it('says a made-up link does not work, and reveals nothing', async () => {
    for (const path of ['/subscribe/unsubscribe/made-up', '/subscribe/confirm/made-up']) {
      const answer = await post(server, path, {})
      expect(answer.status).toBe(410)
      expect(await answer.text()).toContain('This link does not work')
    }
    expect((await get(server, '/subscribe/topics/made-up')).status).toBe(410)
  })
})

describe('the subscribers page', () => {
  it('lists people for administrators and deletes a person for good, with their e-mails', async () => {
    const admin = await signIn(server)
    const page = await (await get(server, '/admin/subscribers', admin)).text()
    expect(page).toContain('bob@example.org')
    expect(page).toContain('Invited to confirm')
    // This server runs without PUBLIC_URL: the page and the article form say what that means for mailings.
    expect(page).toContain('(PUBLIC_URL) is not set')
    expect(await (await get(server, '/admin/news/new', admin)).text()).toContain('(PUBLIC_URL) is not set')
    const [{ id }] = await queryServerDatabase<{ id: string }>(
      server,
      `select id from subscribers where email = 'bob@example.org'`,
    )

    const deleted = await post(server, '/admin/subscribers', { intent: 'delete', id }, admin)
    expect(deleted.status).toBe(302)
    expect(await stateOf('bob@example.org')).toBeUndefined()
    const left = await queryServerDatabase(server, `select id from outgoing_emails where to_address = 'bob@example.org'`)
    expect(left).toEqual([])
    const audit = await queryServerDatabase<{ target_label: string }>(
      server,
      `select target_label from audit_events where action = 'subscriber.deleted'`,
    )
    expect(audit).toEqual([{ target_label: 'a subscriber' }])
  })

  it('invites one person added by hand, refuses bad input, and exports CSV', async () => {
    const admin = await signIn(server)
    const added = await post(server, '/admin/subscribers', { intent: 'add', email: 'dan@example.org', topics: 'events' }, admin)
    expect(added.status).toBe(302)
    const [invitation] = await waitForMails('dan@example.org', 1)
    expect(invitation.parsed.subject).toBe('Please confirm your subscription')
    const twice = await post(server, '/admin/subscribers', { intent: 'add', email: 'dan@example.org', topics: 'events' }, admin)
    expect(twice.status).toBe(409)
    expect(await twice.text()).toContain('already on the list')
    const bad = await post(server, '/admin/subscribers', { intent: 'add', email: 'nope', topics: 'events' }, admin)
    expect(bad.status).toBe(400)

    const csv = await get(server, '/admin/subscribers/export.csv', admin)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('cache-control')).toBe('private, no-store')
    expect(await csv.text()).toMatch(
      /^email,first name,topics,state,signed up,confirmed,unsubscribed\r\n[\s\S]*dan@example\.org,,events,Invited to confirm/,
    )
  })

  it('e-mails the upcoming events to the subscribers of Events once a month', async () => {
    const admin = await signIn(server)
    await signUp({ email: 'eve@example.org', topics: 'events' })
    const [confirmation] = await waitForMails('eve@example.org', 1)
    expect((await post(server, linkIn(confirmation.parsed.text!, 'confirm'), {})).status).toBe(200)

    const sent = await post(server, '/admin/subscribers', { intent: 'digest' }, admin)
    expect(sent.status).toBe(302)
    const [, digest] = await waitForMails('eve@example.org', 2)
    expect(digest.parsed.subject).toMatch(/^Coming up at /)
    expect(digest.parsed.text).toMatch(/\/calendar\//)
    expect(digest.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    const page = await (await get(server, '/admin/subscribers', admin)).text()
    expect(page).toMatch(/This month: 1 sent, 0 waiting, 0 failed/)

    expect((await post(server, '/admin/subscribers', { intent: 'digest' }, admin)).status).toBe(302)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(mailsTo('eve@example.org')).toHaveLength(2)
  })
})
