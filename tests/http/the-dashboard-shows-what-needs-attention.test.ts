import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_SITE_SETTINGS } from '../../app/modules/settings/settings.demo'
import { addDays, todayIn } from '../../app/platform/dates'
import { get, post, signIn } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'
import { execOnServerDatabase } from '../setup/server-database'

const CONFIG_NAMES = /SMTP_URL|SMTP_FROM|CONTACT_FORWARD_URL|FFMPEG_PATH/

function sendContactMessage(server: TestServer, name: string) {
  return post(server, '/contact', { name, email: 'grace@example.com', subject: 'donation', message: 'How can I give?' })
}

function addEvent(server: TestServer, cookie: string, title: string, startDate: string) {
  return post(
    server,
    '/admin/events/new',
    {
      title,
      description: 'Bring a friend.',
      startDate,
      startTime: '10:00',
      location: 'Church hall',
      type: 'meeting',
      repeat: 'none',
      repeatEnds: 'never',
    },
    cookie,
  )
}

/** A section of the dashboard, from its heading to the next section. */
function block(html: string, heading: string): string {
  const start = html.indexOf(`>${heading}</h2>`)
  expect(start, `the dashboard has a block "${heading}"`).toBeGreaterThan(-1)
  const end = html.indexOf('</section>', start)
  return html.slice(start, end)
}

describe('without e-mail set up', () => {
  let server: TestServer
  let admin: string
  const today = todayIn(DEMO_SITE_SETTINGS.timeZone)

  beforeAll(async () => {
    server = await startTestServer()
    admin = await signIn(server)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('shows unread messages, videos still converting, this week’s events and quick links, and keeps the section cards', async () => {
    expect((await sendContactMessage(server, 'Grace Donor')).status).toBe(303)
    expect((await sendContactMessage(server, 'Ivan Giver')).status).toBe(303)
    // The demo video, as if it were still being converted by another process (held, so no worker takes it).
    const later = '2999-01-01T00:00:00.000Z'
    await execOnServerDatabase(
      server,
      `update videos set status = 'processing', lease_token = 'held-elsewhere', lease_expires_at = '${later}', next_attempt_at = '${later}'`,
    )
    expect((await addEvent(server, admin, 'Volunteer briefing', addDays(today, 2))).status).toBe(302)
    expect((await addEvent(server, admin, 'Harvest planning', addDays(today, 10))).status).toBe(302)

    const response = await get(server, '/admin', admin)
    expect(response.status).toBe(200)
    const html = await response.text()

    const attention = block(html, 'Needs attention')
    expect(attention).toMatch(/<a [^>]*href="\/admin\/messages"[^>]*>2 unread messages<\/a>/)
    expect(attention).toMatch(/<a [^>]*href="\/admin\/photos"[^>]*>1 video still being converted<\/a>/)

    const week = block(html, 'Events this week')
    expect(week).toContain('Volunteer briefing')
    expect(week).toMatch(/<a [^>]*href="\/admin\/events\/[0-9a-f-]{36}"[^>]*>Volunteer briefing<\/a>/)
    expect(week).not.toContain('Harvest planning')

    const quick = block(html, 'Quick links')
    expect(quick).toMatch(/href="\/admin\/news\/new"[^>]*>Add an article</)
    expect(quick).toMatch(/href="\/admin\/photos#upload"[^>]*>Add photos or videos</)
    expect(quick).toMatch(/href="\/admin\/events\/new"[^>]*>Add an event</)
    expect(quick).toMatch(/href="\/admin\/products\/new"[^>]*>Add a product</)
    for (const target of ['/admin/news/new', '/admin/photos', '/admin/events/new']) {
      expect((await get(server, target, admin)).status, target).toBe(200)
    }

    // The cards of the sections are still there.
    const sections = block(html, 'Everything you can manage')
    expect(sections).toContain('href="/admin/users"')
    expect(sections).toContain('href="/admin/settings"')
  })

  it('warns on the dashboard and in the inbox, in plain words, that nobody is told about new messages', async () => {
    const dashboard = await (await get(server, '/admin', admin)).text()
    expect(dashboard).toContain('Nobody is told about new messages.')
    expect(dashboard).toContain('Ask whoever runs the site to set up e-mail.')
    expect(dashboard).not.toMatch(CONFIG_NAMES)

    const inbox = await (await get(server, '/admin/messages', admin)).text()
    expect(inbox).toContain('New messages are only kept here: nobody is told when one arrives.')
    expect(inbox).not.toMatch(CONFIG_NAMES)

    const id = inbox.match(/href="\/admin\/messages\/([0-9a-f-]{36})"/)?.[1]
    const message = await (await get(server, `/admin/messages/${id}`, admin)).text()
    expect(message).toContain('Kept in this inbox only: when it arrived, the site was not set up to send messages by e-mail')
    expect(message).not.toMatch(CONFIG_NAMES)
  })

  it('says when there is nothing to attend to', async () => {
    await execOnServerDatabase(server, "update videos set status = 'ready'")
    for (const name of ['Grace Donor', 'Ivan Giver']) {
      const inbox = await (await get(server, '/admin/messages', admin)).text()
      const id = inbox
        .split('<tr')
        .find((row) => row.includes(`>${name}</a>`))
        ?.match(/href="\/admin\/messages\/([0-9a-f-]{36})"/)?.[1]
      expect((await get(server, `/admin/messages/${id}`, admin)).status).toBe(200) // opening it marks it read
    }
    const attention = block(await (await get(server, '/admin', admin)).text(), 'Needs attention')
    expect(attention).toContain('>No unread messages</a>')
    expect(attention).toContain('>No videos being converted</a>')
  })
})

describe('with e-mail set up', () => {
  let server: TestServer
  let admin: string

  beforeAll(async () => {
    // Only configured: nothing is sent in these tests.
    server = await startTestServer({ SMTP_URL: 'smtp://127.0.0.1:9' })
    admin = await signIn(server)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('gives no warning, and the inbox says where messages are e-mailed', async () => {
    const dashboard = await (await get(server, '/admin', admin)).text()
    expect(dashboard).not.toContain('Nobody is told about new messages')
    const inbox = await (await get(server, '/admin/messages', admin)).text()
    expect(inbox).toContain(`New messages are also sent by e-mail to ${DEMO_SITE_SETTINGS.email}.`)
    expect(inbox).not.toMatch(CONFIG_NAMES)
  })
})
