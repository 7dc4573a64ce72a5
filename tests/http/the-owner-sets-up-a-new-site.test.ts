import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../setup/server'
import { get, post, sessionCookieOf, signIn } from '../setup/http-session'

/**
 * A new site without ADMIN_EMAIL waits for its owner: the start prints one address with a secret,
 * only that address opens the setup page, and the setup makes the owner's own account and the site.
 */

const OWNER = {
  organisationName: 'Kingston Food Bank',
  name: 'Marcia Brown',
  email: 'marcia@foodbank.example',
  newPassword: 'a long owner password',
  confirmPassword: 'a long owner password',
  timeZone: 'America/Jamaica',
}

async function setupPathOf(server: TestServer): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const path = /\/setup\/[\w.-]+/.exec(server.output())?.[0]
    if (path) return path
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`No setup address printed:\n${server.output()}`)
}

async function newSite(): Promise<{ server: TestServer; setupPath: string }> {
  const server = await startTestServer({ ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }, { emptySite: true })
  return { server, setupPath: await setupPathOf(server) }
}

describe('a new site with its demo content', () => {
  let server: TestServer
  let setupPath: string
  beforeAll(async () => {
    ;({ server, setupPath } = await newSite())
  })
  afterAll(() => server.stop())

  it('prints no password and says it is being set up on every page but the setup page and the health check', async () => {
    expect(server.output()).not.toContain('Password:')
    for (const path of ['/', '/login', '/admin', '/news', '/setup/wrong']) {
      const response = await get(server, path)
      expect(response.status, path).toBe(path === '/setup/wrong' ? 410 : 503)
      expect(response.headers.get('cache-control'), path).toContain('no-store')
      if (path === '/') expect(await response.text()).toContain('This website is being set up.')
    }
    expect((await get(server, '/healthz')).status).toBe(200)
  })

  it('refuses a made-up secret, and bad input changes nothing', async () => {
    const forged = setupPath.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))
    expect((await post(server, forged, { ...OWNER, start: 'demo' })).status).toBe(410)
    const tooLong = await post(server, setupPath, { ...OWNER, name: 'x'.repeat(10_000), start: 'demo' })
    expect(tooLong.status).toBe(400)
    expect(await tooLong.text()).toContain('Your name must be at most 100 characters')
    const badZone = await post(server, setupPath, { ...OWNER, timeZone: 'Mars/Olympus', start: 'demo' })
    expect(await badZone.text()).toContain('Choose a time zone from the list')
    expect((await get(server, '/')).status).toBe(503)
  })

  it('opens with the printed address, offers the time zones with their offsets, and sets the site up once', async () => {
    const page = await get(server, setupPath)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toContain('no-store')
    const html = await page.text()
    expect(html).toContain('Set up your website')
    expect(html).toMatch(/<option value="America\/Jamaica" label="UTC-05:00"/)

    // The same setup sent twice at once (a double tap): exactly one wins.
    const [first, second] = await Promise.all([
      post(server, setupPath, { ...OWNER, start: 'demo' }),
      post(server, setupPath, { ...OWNER, start: 'demo' }),
    ])
    const statuses = [first.status, second.status].sort()
    expect(statuses).toEqual([302, 410])
    const won = first.status === 302 ? first : second
    expect(won.headers.get('location')).toBe('/admin')
    const cookie = sessionCookieOf(won)!
    const dashboard = await get(server, '/admin', cookie)
    expect(dashboard.status).toBe(200)
    expect(await dashboard.text()).toContain('Marcia Brown')

    // The address is used up and the page is gone; the owner signs in with their own account.
    expect((await get(server, setupPath)).status).toBe(410)
    expect((await post(server, setupPath, { ...OWNER, start: 'demo' })).status).toBe(410)
    expect(await signIn(server, OWNER.email, OWNER.newPassword)).toMatch(/^sid=/)
    const home = await get(server, '/')
    expect(home.status).toBe(200)
    const homeHtml = await home.text()
    expect(homeHtml).toContain('Kingston Food Bank')
    // The demo's content is there to learn from.
    expect(await (await get(server, '/news')).text()).toContain('Young Entrepreneurs Show Their Skills')
    const audit = await (await get(server, '/admin/audit', cookie)).text()
    expect(audit).toContain('Site set up by its owner')
  })
})

describe('a new site started empty', () => {
  let server: TestServer
  let setupPath: string
  beforeAll(async () => {
    ;({ server, setupPath } = await newSite())
  })
  afterAll(() => server.stop())

  it('has the pages a charity needs with placeholder texts, its own time zone, and no demo content', async () => {
    const done = await post(server, setupPath, { ...OWNER, start: 'empty' })
    expect(done.status).toBe(302)
    const home = await (await get(server, '/')).text()
    expect(home).toContain('Kingston Food Bank')
    expect(home).toContain('Replace this text under Admin')
    expect(home).not.toContain('Antigua')
    for (const path of ['/about', '/support', '/contact', '/privacy']) expect((await get(server, path)).status, path).toBe(200)
    const news = await (await get(server, '/news')).text()
    expect(news).not.toContain('Young Entrepreneurs Show Their Skills')
    const settings = await (await get(server, '/admin/settings', sessionCookieOf(done))).text()
    expect(settings).toContain('America/Jamaica')
    expect(settings).toContain(OWNER.email)
  })
})
