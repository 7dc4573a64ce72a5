import { afterEach, describe, expect, it, vi } from 'vitest'
import { createUser } from '~/modules/users/users.service.server'
import { db } from './db.server'
import {
  createSession,
  deleteExpiredSessions,
  getSessionUser,
  readSessionId,
  revokeSession,
  revokeUserSessions,
  SESSION_IDLE_MS,
  SESSION_MAX_AGE_MS,
  sessionCookie,
} from './session.server'

const DEVICE = { userAgent: null, clientAddress: '192.0.2.1' }

afterEach(() => {
  vi.useRealTimers()
})

async function someUser() {
  return createUser({ email: 'ana@example.org', name: 'Ana', role: 'admin', password: 'correct horse battery' })
}

function advance(ms: number) {
  vi.setSystemTime(new Date(Date.now() + ms))
}

describe('sessions', () => {
  it('hands out 256-bit random ids and stores only their hash', async () => {
    const user = await someUser()
    const a = await createSession(user.id, DEVICE)
    const b = await createSession(user.id, DEVICE)
    expect(a.id).toMatch(/^[\w-]{43}$/)
    expect(a.id).not.toBe(b.id)
    const rows = await db.selectFrom('sessions').select(['idHash']).execute()
    expect(rows.map((r) => r.idHash)).not.toContain(a.id)
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.idHash))).toBe(true)
    expect(await getSessionUser(a.id)).toEqual({ id: user.id, email: 'ana@example.org', name: 'Ana', role: 'admin' })
  })

  it('ends after a long idle time, but not while the user is active', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const user = await someUser()
    const active = await createSession(user.id, DEVICE)
    const idle = await createSession(user.id, DEVICE)
    for (let i = 0; i < 3; i++) {
      advance(SESSION_IDLE_MS / 2)
      expect(await getSessionUser(active.id)).not.toBeNull()
    }
    expect(await getSessionUser(idle.id)).toBeNull()
    // and it is gone for good, not just refused
    expect(await db.selectFrom('sessions').select(['idHash']).execute()).toHaveLength(1)
  })

  it('ends at its absolute lifetime even when used all the time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const user = await someUser()
    const session = await createSession(user.id, DEVICE)
    const step = SESSION_IDLE_MS / 2
    for (let t = step; t < SESSION_MAX_AGE_MS; t += step) {
      advance(step)
      expect(await getSessionUser(session.id)).not.toBeNull()
    }
    advance(step)
    expect(await getSessionUser(session.id)).toBeNull()
  })

  it('can be revoked one by one or all of a user at once', async () => {
    const user = await someUser()
    const [a, b, c] = await Promise.all([
      createSession(user.id, DEVICE),
      createSession(user.id, DEVICE),
      createSession(user.id, DEVICE),
    ])
    await revokeSession(a.id)
    expect(await getSessionUser(a.id)).toBeNull()
    expect(await getSessionUser(b.id)).not.toBeNull()
    await revokeUserSessions(user.id)
    expect(await getSessionUser(b.id)).toBeNull()
    expect(await getSessionUser(c.id)).toBeNull()
  })

  it('sweeps expired and idle sessions', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const user = await someUser()
    await createSession(user.id, DEVICE)
    advance(SESSION_IDLE_MS + 1000)
    const fresh = await createSession(user.id, DEVICE)
    await deleteExpiredSessions()
    const left = await db.selectFrom('sessions').select(['createdAt']).execute()
    expect(left).toHaveLength(1)
    expect(await getSessionUser(fresh.id)).not.toBeNull()
  })

  it('uses an HttpOnly, SameSite=Lax cookie, Secure over HTTPS', async () => {
    const user = await someUser()
    const session = await createSession(user.id, DEVICE)
    const plain = sessionCookie(session, false)
    expect(plain).toMatch(/HttpOnly/)
    expect(plain).toMatch(/SameSite=Lax/)
    expect(plain).not.toMatch(/Secure/)
    expect(sessionCookie(session, true)).toMatch(/; Secure$/)
    const request = new Request('http://x/', { headers: { cookie: `a=1; ${plain.split(';')[0]}; b=2` } })
    expect(readSessionId(request)).toBe(session.id)
    expect(readSessionId(new Request('http://x/', { headers: { cookie: 'sid=forged' } }))).toBeNull()
  })
})
