import { describe, expect, it } from 'vitest'
import { ADMIN, get, post, sessionCookieOf, signIn } from '../setup/http-session'
import { startServerForFile } from '../setup/server-for-file'

const server = await startServerForFile()

describe('signing in and out', () => {
  it('sends anonymous visitors of admin pages to the sign-in page', async () => {
    const response = await get(server, '/admin/users')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/login?redirectTo=%2Fadmin%2Fusers')
    const page = await (await get(server, '/login?redirectTo=%2Fadmin%2Fusers')).text()
    expect(page).toContain('>E-mail</label>')
    expect(page).toContain('>Password</label>')
    expect(page).toContain('>Sign in</button>')
  })

  it('sets an HttpOnly, SameSite=Lax session cookie with a new id at every sign-in', async () => {
    const planted = `sid=${'P'.repeat(43)}`
    const response = await post(server, '/login', ADMIN, planted)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/admin')
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('sid='))!
    expect(setCookie).toMatch(/; HttpOnly/)
    expect(setCookie).toMatch(/; SameSite=Lax/)
    expect(setCookie).toMatch(/; Path=\//)
    expect(setCookie).not.toMatch(/Secure/) // plain HTTP here; see the trusted-proxy test for HTTPS
    const first = sessionCookieOf(response)!
    expect(first).not.toBe(planted)
    const second = await signIn(server)
    expect(second).not.toBe(first)
  })

  it('ends the previous session of the browser that signs in again', async () => {
    const before = await signIn(server)
    const after = sessionCookieOf(await post(server, '/login', ADMIN, before))!
    expect((await get(server, '/admin', before)).status).toBe(302)
    expect((await get(server, '/admin', after)).status).toBe(200)
  })

  it('answers a wrong password and an unknown e-mail alike: Invalid credentials', async () => {
    for (const attempt of [
      { email: ADMIN.email, password: 'not the password' },
      { email: 'nobody@example.org', password: ADMIN.password },
    ]) {
      const response = await post(server, '/login', attempt)
      expect(response.status).toBe(401)
      expect(sessionCookieOf(response)).toBeUndefined()
      const page = await response.text()
      expect(page).toContain('Invalid credentials')
      expect(page).not.toContain(attempt.password) // the password is not echoed back
    }
  })

  it('explains missing fields without a server error', async () => {
    const response = await post(server, '/login', { email: '', password: '' })
    expect(response.status).toBe(400)
    const page = await response.text()
    expect(page).toContain('E-mail is required')
    expect(page).toContain('Password is required')
  })

  it('shows the dashboard to a signed-in admin, never cached or indexed', async () => {
    const cookie = await signIn(server)
    const response = await get(server, '/admin', cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow')
    const page = await response.text()
    expect(page).toContain('<meta name="robots" content="noindex, nofollow"/>')
    expect(page).toContain('Dashboard</h1>')
    expect(page).toContain('href="/admin/users"')
  })

  it('signs out with a POST that ends the session on the server', async () => {
    const cookie = await signIn(server)
    expect((await get(server, '/logout', cookie)).status).toBe(405) // a link cannot sign anyone out
    expect((await get(server, '/admin', cookie)).status).toBe(200)

    const response = await post(server, '/logout', {}, cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/')
    expect(response.headers.getSetCookie().find((c) => c.startsWith('sid='))).toMatch(/Max-Age=0/)
    // Replaying the old cookie does not work: the session is gone, not just forgotten by the browser.
    const replay = await get(server, '/admin', cookie)
    expect(replay.status).toBe(302)
    expect(replay.headers.get('location')).toMatch(/^\/login\?/)
  })

  it('returns to a same-site page after sign-in and to the dashboard for any other target', async () => {
    const back = await post(server, '/login', { ...ADMIN, redirectTo: '/admin/users?x=1' })
    expect(back.headers.get('location')).toBe('/admin/users?x=1')
    for (const target of [
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/admin',
      '/\t/evil.example',
      'javascript:alert(1)',
      '/.//evil.example',
      '/a/..//evil.example',
    ]) {
      const response = await post(server, '/login', { ...ADMIN, redirectTo: target })
      expect(response.status, target).toBe(302)
      expect(response.headers.get('location'), target).toBe('/admin')
    }
    for (const target of ['%2F%2Fevil.example', '%2F.%2F%2Fevil.example']) {
      const form = await (await get(server, `/login?redirectTo=${target}`)).text()
      expect(form, target).not.toContain('evil.example')
    }
  })

  it('sends a signed-in visitor of /login on to the target', async () => {
    const cookie = await signIn(server)
    const response = await get(server, '/login?redirectTo=%2Fadmin%2Faccount', cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/admin/account')
  })
})
