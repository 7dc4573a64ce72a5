import { generate } from 'otplib'
import { afterEach, describe, expect, it } from 'vitest'
import { ADMIN, get, post, sessionCookieOf, signIn } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'

let server: TestServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

function pendingCookieOf(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith('two_step=') && !c.includes('Max-Age=0'))
    ?.split(';')[0]
}

/** The key shown beside the QR code, as a person would type it into the app. */
async function secretOnPage(response: Response): Promise<string> {
  const html = await response.text()
  const secret = html.match(/<code class="two-step-secret">([^<]+)<\/code>/)?.[1]
  if (!secret) throw new Error('no key on the setup page')
  return secret.replace(/\s/g, '')
}

function recoveryCodesOn(html: string): string[] {
  return [...html.matchAll(/<code>([a-z0-9]{5}-[a-z0-9]{5})<\/code>/g)].map((m) => m[1])
}

// The app's code for the next 30-second step: still accepted, and later than the step used to set it up.
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 })

/** Turns on the authenticator app for the signed-in admin; returns its secret and the recovery codes shown. */
async function setUpApp(server: TestServer, admin: string) {
  expect((await post(server, '/admin/account/two-step', { intent: 'begin' }, admin)).status).toBe(302)
  const secret = await secretOnPage(await get(server, '/admin/account/two-step', admin))
  const confirmed = await post(server, '/admin/account/two-step', { intent: 'confirm', code: await generate({ secret }) }, admin)
  expect(confirmed.status).toBe(200)
  const codes = recoveryCodesOn(await confirmed.text())
  expect(codes).toHaveLength(10)
  return { secret, codes }
}

/** The password step: a pending sign-in, never a session. */
async function passwordStep(server: TestServer, account = ADMIN): Promise<string> {
  const response = await post(server, '/login', account)
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/login/two-step')
  expect(sessionCookieOf(response)).toBeUndefined()
  const pending = pendingCookieOf(response)
  expect(pending).toBeDefined()
  return pending!
}

describe('two-step sign-in', () => {
  it('asks for the app code after the password; a pending sign-in opens nothing, a recovery code works once', async () => {
    server = await startTestServer()
    const { secret, codes } = await setUpApp(server, await signIn(server))

    const pending = await passwordStep(server)
    // The pending sign-in is no session: /admin sends it to the sign-in page, under any cookie name.
    for (const cookie of [pending, pending.replace('two_step=', 'sid=')]) {
      const admin = await get(server, '/admin', cookie)
      expect(admin.status).toBe(302)
      expect(admin.headers.get('location')).toMatch(/^\/login/)
    }
    expect((await get(server, '/login/two-step', pending)).status).toBe(200)

    const wrong = await post(server, '/login/two-step', { code: '000000' }, pending)
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('That code is not right.')
    expect(sessionCookieOf(wrong)).toBeUndefined()

    const right = await post(server, '/login/two-step', { code: await nextCode(secret) }, pending)
    expect(right.status).toBe(302)
    expect(right.headers.get('location')).toBe('/admin')
    const session = sessionCookieOf(right)!
    expect((await get(server, '/admin', session)).status).toBe(200)
    // The pending sign-in is used up.
    expect((await post(server, '/login/two-step', { code: await nextCode(secret) }, pending)).status).toBe(401)

    // A recovery code, typed in capitals with a space, signs in once.
    const spoken = codes[3].toUpperCase().replace('-', ' ')
    const withCode = await post(server, '/login/two-step', { code: spoken }, await passwordStep(server))
    expect(withCode.status).toBe(302)
    expect(sessionCookieOf(withCode)).toBeDefined()
    const again = await post(server, '/login/two-step', { code: codes[3] }, await passwordStep(server))
    expect(again.status).toBe(401)
    expect(sessionCookieOf(again)).toBeUndefined()

    // Failures are in the audit log, as failed passwords are.
    const audit = await (await get(server, '/admin/audit', session)).text()
    expect(audit).toContain('Wrong second-step code')
  })

  it('refuses further codes after five wrong ones, even the right one, with 429 and Retry-After', async () => {
    server = await startTestServer()
    const { secret } = await setUpApp(server, await signIn(server))
    const pending = await passwordStep(server)
    for (let i = 0; i < 5; i++) {
      expect((await post(server, '/login/two-step', { code: String(123456 + i) }, pending)).status).toBe(401)
    }
    const refused = await post(server, '/login/two-step', { code: await nextCode(secret) }, pending)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toContain('Too many wrong codes. Please try again in')
    expect(sessionCookieOf(refused)).toBeUndefined()
    // A new password step does not reset the count.
    expect((await post(server, '/login/two-step', { code: await nextCode(secret) }, await passwordStep(server))).status).toBe(429)
  })

  it('leads a person whose role requires it to set it up before anything else', async () => {
    server = await startTestServer()
    const admin = await signIn(server)
    const manager = { email: 'mo@example.org', password: 'a long enough password' }
    expect((await post(server, '/admin/users/new', { name: 'Mo', role: 'marketplace', ...manager }, admin)).status).toBe(302)
    const before = await signIn(server, manager.email, manager.password)
    expect((await get(server, '/admin/products', before)).status).toBe(200)
    const required = await post(server, '/admin/users', { roles: 'marketplace' }, admin)
    expect(required.status).toBe(302)
    // Mo's session began with the password alone: it ends with the new rule.
    expect((await get(server, '/admin/products', before)).headers.get('location')).toMatch(/^\/login/)
    // Administrators are not concerned: they stay signed in, and still sign in with the password alone.
    expect((await get(server, '/admin/users', admin)).status).toBe(200)
    expect(sessionCookieOf(await post(server, '/login', ADMIN))).toBeDefined()

    const pending = await passwordStep(server, manager)
    expect((await get(server, '/admin/products', pending)).status).toBe(302)
    const setupPage = await get(server, '/login/two-step', pending)
    expect(setupPage.status).toBe(200)
    const secret = await secretOnPage(setupPage.clone())
    expect(await setupPage.text()).toContain('Set up two-step sign-in')

    expect((await post(server, '/login/two-step', { code: '999999' }, pending)).status).toBe(401)
    const done = await post(server, '/login/two-step', { code: await generate({ secret }) }, pending)
    expect(done.status).toBe(200)
    expect(recoveryCodesOn(await done.text())).toHaveLength(10)
    const session = sessionCookieOf(done)!
    expect((await get(server, '/admin/products', session)).status).toBe(200)
    // From now on the app's code is asked for, and the role keeps it from being turned off.
    await passwordStep(server, manager)
    const off = await post(server, '/admin/account/two-step', { intent: 'turn-off' }, session)
    expect(off.status).toBe(400)
    expect(await off.text()).toContain('Two-step sign-in is required for your role')
  })

  it('refuses forged passkey answers, counts them against the sign-in limit and records them', async () => {
    server = await startTestServer()
    const admin = await signIn(server)
    const options = await post(server, '/login/passkey', { intent: 'options' })
    expect(options.status).toBe(200)
    const { challenge } = (await options.json()).options
    expect(challenge).toMatch(/^[\w-]{20,}$/)

    const forged = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: '', signature: '' },
    }
    for (const response of [JSON.stringify(forged), 'not json', '{"id":1}']) {
      const refused = await post(server, '/login/passkey', { intent: 'verify', response })
      expect(refused.status).toBe(401)
      expect(sessionCookieOf(refused)).toBeUndefined()
    }
    expect((await post(server, '/login/passkey', { intent: 'verify', response: 'x'.repeat(20_001) })).status).toBe(400)
    // Adding a passkey with a forged answer is refused in words, and nothing is kept.
    const added = await post(
      server,
      '/admin/account/passkeys',
      { intent: 'add', name: 'Fake', response: JSON.stringify(forged) },
      admin,
    )
    expect(added.status).toBe(400)
    expect(await added.json()).toEqual({ error: 'The passkey could not be added. Please try again.' })
    expect(await (await get(server, '/admin/account/two-step', admin)).text()).toContain('You have no passkeys yet.')

    // With the three above, ten failures from one client: the next is refused.
    for (let i = 0; i < 7; i++)
      expect((await post(server, '/login/passkey', { intent: 'verify', response: '{}' })).status).toBe(401)
    const throttled = await post(server, '/login/passkey', { intent: 'verify', response: '{}' })
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    const audit = await (await get(server, '/admin/audit?action=sign-in-failed', admin)).text()
    expect(audit).toContain('Sign-in failed')

    // Challenges are rows anyone may ask for: a few per client.
    const statuses = []
    for (let i = 0; i < 30; i++) statuses.push((await post(server, '/login/passkey', { intent: 'options' })).status)
    expect(statuses.slice(0, 29).every((status) => status === 200)).toBe(true)
    expect(statuses[29]).toBe(429)
  })
})
