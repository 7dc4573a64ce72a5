import { describe, expect, it } from 'vitest'
import { ADMIN, get, post, sessionCookieOf } from '../setup/http-session'
import { queryServerDatabase, execOnServerDatabase } from '../setup/server-database'
import { startTestServer } from '../setup/server'
import { afterAll } from 'vitest'

// "My account" lists where the person is signed in and signs any of those devices out.
const server = await startTestServer({ TRUST_PROXY: 'true' })
afterAll(() => server.stop())

const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0'
const TABLET =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

async function signInFrom(userAgent: string, address: string, who = ADMIN) {
  const response = await post(server, '/login', who, undefined, { 'user-agent': userAgent, 'x-forwarded-for': address })
  const cookie = sessionCookieOf(response)
  if (response.status !== 302 || !cookie) throw new Error(`sign-in failed: ${response.status}`)
  return cookie
}

const accountPage = async (cookie: string) => (await get(server, '/admin/account', cookie)).text()
const isSignedIn = async (cookie: string) => (await get(server, '/admin/account', cookie)).status === 200

/** The key the page's "Sign out" button sends for the device described as `device`. */
function deviceKey(html: string, device: string): string {
  const before = html.split(`aria-label="Sign out ${device}`)[0]
  const key = [...before.matchAll(/name="device" value="([0-9a-f]+)"/g)].pop()?.[1]
  if (!key || before === html) throw new Error(`No sign-out button for ${device}`)
  return key
}

describe('the devices of an account', () => {
  it('are listed with browser, system, address and times, and each can be signed out', async () => {
    const phone = await signInFrom(PHONE, '203.0.113.7')
    const laptop = await signInFrom(LAPTOP, '198.51.100.20')
    const tablet = await signInFrom(TABLET, '192.0.2.33')

    const html = await accountPage(phone)
    expect(html).toContain('Chrome on Android, phone')
    expect(html).toContain('Firefox on Windows')
    expect(html).toContain('203.0.113.7')
    expect(html).toContain('198.51.100.20')
    expect(html).toContain('this device')
    expect(html).not.toMatch(/aria-label="Sign out Chrome on Android/) // the current one signs out as usual

    const signedOut = await post(
      server,
      '/admin/account/devices',
      { intent: 'sign-out-device', device: deviceKey(html, 'Firefox on Windows') },
      phone,
    )
    expect(signedOut.status).toBe(302)
    expect(signedOut.headers.get('location')).toBe('/admin/account#devices')
    expect(await isSignedIn(laptop)).toBe(false)
    expect(await isSignedIn(phone)).toBe(true)
    expect(await isSignedIn(tablet)).toBe(true)

    const everywhereElse = await post(server, '/admin/account/devices', { intent: 'sign-out-others' }, phone)
    expect(everywhereElse.status).toBe(302)
    expect(await isSignedIn(tablet)).toBe(false)
    expect(await isSignedIn(phone)).toBe(true)
    expect(await accountPage(phone)).not.toContain('Sign out everywhere else')

    const audit = await (await get(server, '/admin/audit', phone)).text()
    expect(audit).toContain('Signed out a device')
    expect(audit).toContain('Signed out everywhere else')
  })

  it("cannot sign out another person's device, and refuses a form it does not understand", async () => {
    const admin = await signInFrom(LAPTOP, '198.51.100.21')
    const created = await post(
      server,
      '/admin/users/new',
      { name: 'Other Person', email: 'other@example.org', role: 'marketplace', password: 'other persons password' },
      admin,
    )
    expect(created.status).toBe(302)
    const other = await signInFrom(PHONE, '203.0.113.8', { email: 'other@example.org', password: 'other persons password' })
    const adminPhone = await signInFrom(PHONE, '203.0.113.9')
    const key = deviceKey(await accountPage(admin), 'Chrome on Android, phone')

    const refused = await post(server, '/admin/account/devices', { intent: 'sign-out-device', device: key }, other)
    expect(refused.status).toBe(302)
    expect(await isSignedIn(adminPhone)).toBe(true)
    expect((await post(server, '/admin/account/devices', { intent: 'sign-out-everything' }, other)).status).toBe(400)
    expect((await post(server, '/admin/account/devices', { intent: 'sign-out-others' })).status).toBe(302) // anonymous: to sign-in
    expect(await isSignedIn(adminPhone)).toBe(true)
  })

  it('records last activity at most once in 5 minutes per session, not at every request', async () => {
    const cookie = await signInFrom(LAPTOP, '198.51.100.22')
    const id = cookie.slice('sid='.length)
    const hash = (await import('node:crypto')).createHash('sha256').update(id).digest('hex')
    const lastSeen = async () =>
      (
        await queryServerDatabase<{ last_seen_at: string }>(server, `select last_seen_at from sessions where id_hash = '${hash}'`)
      )[0].last_seen_at
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

    const fourMinutesAgo = minutesAgo(4)
    await execOnServerDatabase(server, `update sessions set last_seen_at = '${fourMinutesAgo}' where id_hash = '${hash}'`)
    for (let i = 0; i < 3; i++) expect(await isSignedIn(cookie)).toBe(true)
    expect(await lastSeen()).toBe(fourMinutesAgo)

    await execOnServerDatabase(server, `update sessions set last_seen_at = '${minutesAgo(6)}' where id_hash = '${hash}'`)
    expect(await isSignedIn(cookie)).toBe(true)
    expect(Date.now() - Date.parse(await lastSeen())).toBeLessThan(60_000)
  })
})
