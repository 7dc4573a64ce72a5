import { beforeEach, describe, expect, it } from 'vitest'
import { listAuditEventsForAdmin } from '~/modules/audit/audit.queries.server'
import { getSessionUser } from '~/platform/session.server'
import { signInWithPassword } from './sign-in.server'
import { createUser } from './users.service.server'

const PASSWORD = 'correct horse battery'
// Each test guesses from an address of its own: this process remembers an address that went over
// its limit until the window ends, while each test starts with an empty database.
let attackers = 0
let attacker = ''
beforeEach(() => {
  attacker = `203.0.113.${++attackers}`
})
const ADMIN_HOME = '198.51.100.7'

async function fail(clientIp: string, email = 'ana@example.org') {
  return signInWithPassword({ email, password: 'a wrong guess', clientIp })
}

describe('sign-in', () => {
  it('starts a session for the right password', async () => {
    const ana = await createUser({ email: 'ana@example.org', name: 'Ana', role: 'admin', password: PASSWORD })
    const outcome = await signInWithPassword({ email: 'ana@example.org', password: PASSWORD, clientIp: ADMIN_HOME })
    expect(outcome.ok && 'session' in outcome).toBe(true)
    if (outcome.ok && 'session' in outcome) expect(await getSessionUser(outcome.session.id)).toMatchObject({ id: ana.id })
  })

  it('throttles repeated guesses at one account from one client', async () => {
    await createUser({ email: 'ana@example.org', name: 'Ana', role: 'admin', password: PASSWORD })
    for (let i = 0; i < 5; i++) expect(await fail(attacker)).toEqual({ ok: false, reason: 'invalid' })
    const outcome = await fail(attacker)
    expect(outcome).toMatchObject({ ok: false, reason: 'throttled' })
    if (outcome.ok === false && outcome.reason === 'throttled') {
      expect(outcome.retryAfterSeconds).toBeGreaterThan(60)
      expect(outcome.retryAfterSeconds).toBeLessThanOrEqual(15 * 60)
    }
    // even the right password waits: the guesser must not learn it was right
    expect(await signInWithPassword({ email: 'ana@example.org', password: PASSWORD, clientIp: attacker })).toMatchObject({
      reason: 'throttled',
    })
  })

  it('throttles one client guessing across many accounts', async () => {
    for (let i = 0; i < 10; i++) expect(await fail(attacker, `user${i}@example.org`)).toMatchObject({ reason: 'invalid' })
    expect(await fail(attacker, 'someone-else@example.org')).toMatchObject({ reason: 'throttled' })
  })

  it('does not lock the real admin out when someone else guesses', async () => {
    await createUser({ email: 'ana@example.org', name: 'Ana', role: 'admin', password: PASSWORD })
    for (let i = 0; i < 12; i++) await fail(attacker)
    const outcome = await signInWithPassword({ email: 'ana@example.org', password: PASSWORD, clientIp: ADMIN_HOME })
    expect(outcome.ok).toBe(true)
  })

  it('forgets an account’s failed attempts after a successful sign-in', async () => {
    await createUser({ email: 'ana@example.org', name: 'Ana', role: 'admin', password: PASSWORD })
    for (let i = 0; i < 4; i++) await fail(ADMIN_HOME)
    expect((await signInWithPassword({ email: 'ana@example.org', password: PASSWORD, clientIp: ADMIN_HOME })).ok).toBe(true)
    for (let i = 0; i < 4; i++) expect(await fail(ADMIN_HOME)).toMatchObject({ reason: 'invalid' })
  })

  it('records each sign-in and each wrong password in the audit log, but not the attempts it refuses', async () => {
    const ana = await createUser({ email: 'ana@example.org', name: 'Ana', role: 'admin', password: PASSWORD })
    await signInWithPassword({ email: ' Ana@Example.org ', password: PASSWORD, clientIp: ADMIN_HOME })
    for (let i = 0; i < 8; i++) await fail(attacker)
    const { events } = await listAuditEventsForAdmin({})
    const failed = events.filter((e) => e.action === 'sign-in-failed')
    // Five wrong passwords were checked; the three after them were refused by the throttle unchecked.
    expect(failed).toHaveLength(5)
    expect(failed[0]).toMatchObject({ actorUserId: null, actorEmail: 'ana@example.org', clientAddress: attacker, detail: null })
    expect(JSON.stringify(events)).not.toContain('a wrong guess')
    expect(events.filter((e) => e.action === 'sign-in')).toEqual([
      expect.objectContaining({
        actorUserId: ana.id,
        actorEmail: 'ana@example.org',
        actorName: 'Ana',
        clientAddress: ADMIN_HOME,
      }),
    ])
  })
})
