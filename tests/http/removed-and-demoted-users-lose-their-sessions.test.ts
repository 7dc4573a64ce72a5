import { describe, expect, it } from 'vitest'
import { get, post, signIn, userIdFromList } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()

const BEN = { name: 'Ben Baker', email: 'ben@example.org', password: 'bens first password' }

async function addUser(role: 'admin' | 'marketplace', who = BEN) {
  const response = await post(
    server,
    '/admin/users/new',
    { name: who.name, email: who.email, role, password: who.password },
    admin,
  )
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/admin/users')
  return userIdFromList(server, admin, who.name)
}

async function isSignedIn(cookie: string) {
  return (await get(server, '/admin/account', cookie)).status === 200
}

describe('managing users over HTTP', () => {
  it('explains each wrong field of the add-user form', async () => {
    const empty = await post(server, '/admin/users/new', {}, admin)
    expect(empty.status).toBe(400)
    const page = await empty.text()
    for (const message of ['Name is required', 'E-mail is required', 'Choose a role', 'Password is required']) {
      expect(page).toContain(message)
    }
    const bad = await (
      await post(server, '/admin/users/new', { name: 'X', email: 'not-an-email', role: 'owner', password: 'short' }, admin)
    ).text()
    expect(bad).toContain('Enter a valid e-mail address')
    expect(bad).toContain('Choose a role')
    expect(bad).toContain('Password must be at least 10 characters')
    const taken = await (
      await post(
        server,
        '/admin/users/new',
        { name: 'X', email: 'admin@example.org', role: 'admin', password: 'long enough password' },
        admin,
      )
    ).text()
    expect(taken).toContain('A user with this e-mail already exists')
  })

  it('signs a user out everywhere when their role changes, and a marketplace manager is refused admin pages', async () => {
    const id = await addUser('admin')
    const ben = await signIn(server, BEN.email, BEN.password)
    expect((await get(server, '/admin/users', ben)).status).toBe(200)

    const demote = await post(server, `/admin/users/${id}`, { intent: 'change-role', role: 'marketplace' }, admin)
    expect(demote.status).toBe(302)
    expect(await isSignedIn(ben)).toBe(false)

    const again = await signIn(server, BEN.email, BEN.password)
    expect((await get(server, '/admin/users', again)).status).toBe(403)
    expect((await get(server, '/admin/account', again)).status).toBe(200)

    await post(server, `/admin/users/${id}`, { intent: 'remove' }, admin)
  })

  it('signs a user out everywhere when an admin resets their password', async () => {
    const id = await addUser('marketplace')
    const ben = await signIn(server, BEN.email, BEN.password)
    const short = await post(server, `/admin/users/${id}`, { intent: 'reset-password', password: 'short' }, admin)
    expect(short.status).toBe(400)
    expect(await short.text()).toContain('Password must be at least 10 characters')
    expect(await isSignedIn(ben)).toBe(true)

    const reset = await post(server, `/admin/users/${id}`, { intent: 'reset-password', password: 'bens new password' }, admin)
    expect(reset.status).toBe(302)
    expect(await isSignedIn(ben)).toBe(false)
    expect((await post(server, '/login', { email: BEN.email, password: BEN.password })).status).toBe(401)
    await signIn(server, BEN.email, 'bens new password')

    await post(server, `/admin/users/${id}`, { intent: 'remove' }, admin)
  })

  it('ends the sessions of a removed user, who can no longer sign in', async () => {
    const id = await addUser('marketplace')
    const ben = await signIn(server, BEN.email, BEN.password)
    const removed = await post(server, `/admin/users/${id}`, { intent: 'remove' }, admin)
    expect(removed.status).toBe(302)
    expect(removed.headers.get('location')).toBe('/admin/users')
    expect(await isSignedIn(ben)).toBe(false)
    const response = await post(server, '/login', { email: BEN.email, password: BEN.password })
    expect(await response.text()).toContain('Invalid credentials')
    expect((await get(server, `/admin/users/${id}`, admin)).status).toBe(404)
  })

  it('does not let the last admin remove or demote themselves', async () => {
    const me = await userIdFromList(server, admin, 'Administrator')
    const attempts: Record<string, string>[] = [{ intent: 'remove' }, { intent: 'change-role', role: 'marketplace' }]
    for (const fields of attempts) {
      const response = await post(server, `/admin/users/${me}`, fields, admin)
      expect(response.status).toBe(400)
      expect(await response.text()).toContain('The last administrator cannot be removed or given another role.')
    }
    expect(await isSignedIn(admin)).toBe(true)
  })

  it('answers a malformed form or an unknown user without a server error', async () => {
    const me = await userIdFromList(server, admin, 'Administrator')
    expect((await post(server, `/admin/users/${me}`, { intent: 'explode' }, admin)).status).toBe(400)
    expect((await get(server, '/admin/users/no-such-user', admin)).status).toBe(404)
    expect((await post(server, '/admin/users/no-such-user', { intent: 'remove' }, admin)).status).toBe(404)
  })

  it('lets every user change their own password with the current one', async () => {
    await addUser('marketplace')
    const ben = await signIn(server, BEN.email, BEN.password)
    const wrong = await post(
      server,
      '/admin/account',
      { currentPassword: 'not it at all', newPassword: 'bens better password', confirmPassword: 'bens better password' },
      ben,
    )
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('Current password is incorrect')
    const mismatch = await post(
      server,
      '/admin/account',
      { currentPassword: BEN.password, newPassword: 'bens better password', confirmPassword: 'something else' },
      ben,
    )
    expect(await mismatch.text()).toContain('The passwords do not match')

    const elsewhere = await signIn(server, BEN.email, BEN.password)
    const changed = await post(
      server,
      '/admin/account',
      { currentPassword: BEN.password, newPassword: 'bens better password', confirmPassword: 'bens better password' },
      ben,
    )
    expect(changed.status).toBe(302)
    const fresh = changed.headers
      .getSetCookie()
      .find((c) => c.startsWith('sid='))!
      .split(';')[0]
    expect(await isSignedIn(fresh)).toBe(true)
    expect(await isSignedIn(ben)).toBe(false)
    expect(await isSignedIn(elsewhere)).toBe(false)
    await signIn(server, BEN.email, 'bens better password')
  })
})
