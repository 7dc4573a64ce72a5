import { afterEach, describe, expect, it } from 'vitest'
import { ADMIN, get, post, sessionCookieOf } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'

let server: TestServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

const WRONG = { email: ADMIN.email, password: 'a wrong guess' }

describe('sign-in throttling', () => {
  it('answers repeated failures with 429 and Retry-After, whatever X-Forwarded-For claims', async () => {
    server = await startTestServer()
    for (let i = 0; i < 5; i++) {
      const response = await post(server, '/login', WRONG, undefined, { 'x-forwarded-for': `10.0.0.${i}` })
      expect(response.status).toBe(401)
    }
    const refused = await post(server, '/login', WRONG, undefined, { 'x-forwarded-for': '10.9.9.9' })
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    expect(await refused.text()).toContain('Too many sign-in attempts. Please try again in')
    // Even the right password is refused meanwhile, so a guesser cannot tell a hit.
    const right = await post(server, '/login', ADMIN, undefined, { 'x-forwarded-for': '10.9.9.10' })
    expect(right.status).toBe(429)
    expect(sessionCookieOf(right)).toBeUndefined()
  })

  it('limits one client across many e-mail addresses', async () => {
    server = await startTestServer()
    for (let i = 0; i < 10; i++) {
      expect((await post(server, '/login', { email: `guess${i}@example.org`, password: 'x' })).status).toBe(401)
    }
    expect((await post(server, '/login', { email: 'guess10@example.org', password: 'x' })).status).toBe(429)
  })

  it('keeps refusing a client over its limit, with a page that says how long to wait, even for the right password', async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' })
    const guesser = { 'x-forwarded-for': '203.0.113.9' }
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      statuses.push((await post(server, '/login', { email: `guess${i}@example.org`, password: 'x' }, undefined, guesser)).status)
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429])

    // A browser without JavaScript posts the page itself.
    const refused = await post(server, '/login', ADMIN, undefined, guesser)
    expect(refused.status).toBe(429)
    expect(sessionCookieOf(refused)).toBeUndefined()
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(14 * 60)
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    const html = await refused.text()
    expect(html).toContain('<h1>Sign in</h1>')
    expect(html).toContain('Too many sign-in attempts. Please try again in 15 minutes.')
    expect(html).toMatch(/<a class="button" href="\/login">Back to sign in<\/a>/)
    // It is styled by the site's own stylesheet, which the server sends.
    const stylesheet = html.match(/<link rel="stylesheet" href="([^"]+\.css)">/)?.[1]
    expect(stylesheet).toBeDefined()
    expect((await get(server, stylesheet!)).status).toBe(200)

    // React Router answers /login whatever its case and trailing slash: so does the refusal.
    const otherSpelling = await post(server, '/LOGIN/', ADMIN, undefined, guesser)
    expect(otherSpelling.status).toBe(429)
    expect(await otherSpelling.text()).toContain('Back to sign in')

    // The form's JavaScript posts to /login.data, and the action refuses it the same way.
    const fromScript = await post(server, '/login.data', ADMIN, undefined, guesser)
    expect(fromScript.status).toBe(429)
    expect(sessionCookieOf(fromScript)).toBeUndefined()
    expect(await fromScript.text()).toContain('Too many sign-in attempts. Please try again in 15 minutes.')

    // Another client signs in.
    expect((await post(server, '/login', ADMIN, undefined, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(302)
  })

  it('behind a trusted proxy, throttles the guesser but not the real admin elsewhere', async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' })
    const attacker = { 'x-forwarded-for': '203.0.113.9' }
    for (let i = 0; i < 5; i++) await post(server, '/login', WRONG, undefined, attacker)
    expect((await post(server, '/login', WRONG, undefined, attacker)).status).toBe(429)

    const admin = await post(server, '/login', ADMIN, undefined, {
      'x-forwarded-for': '198.51.100.7',
      'x-forwarded-proto': 'https',
      origin: server.url.replace('http:', 'https:'),
    })
    expect(admin.status).toBe(302)
    // Served over HTTPS (as the proxy says), the cookie is Secure.
    expect(admin.headers.getSetCookie().find((c) => c.startsWith('sid='))).toMatch(/; Secure/)
    const cookie = sessionCookieOf(admin)!
    expect((await get(server, '/admin', cookie, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200)
  })
})
