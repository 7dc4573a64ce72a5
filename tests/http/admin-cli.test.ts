import { describe, expect, it } from 'vitest'
import { generate } from 'otplib'
import { beginAuthenticatorSetup, confirmAuthenticator, getTwoStepStatus } from '~/modules/users/two-step.server'
import { authenticate } from '~/modules/users/users.service.server'
import { listPasskeys } from '~/modules/users/passkeys.server'
import { db } from '~/platform/db.server'
import { createSession, getSessionUser } from '~/platform/session.server'
import { runScript } from '../setup/run-script'

/** Runs `npm run admin -- ...` against this test file's database, with `stdin` piped in. */
function admin(args: string[], stdin = '') {
  return runScript('admin', args, { stdin })
}

describe('npm run admin', () => {
  it('creates, lists and resets a user, reading passwords from stdin', async () => {
    const created = await admin(['create', '--email', 'Ops@Example.org', '--name', 'Ops Team'], 'a piped password\n')
    expect(created).toMatchObject({ code: 0, stdout: 'Created admin ops@example.org.\n' })
    expect(await authenticate('ops@example.org', 'a piped password')).toMatchObject({ name: 'Ops Team', role: 'admin' })

    const listed = await admin(['list'])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^ops@example\.org\tOps Team\tadmin\t\d{4}-/m)
    expect(listed.stdout).not.toContain('argon2')

    const reset = await admin(['reset-password', '--email', 'ops@example.org'], 'another piped password\n')
    expect(reset.code).toBe(0)
    expect(await authenticate('ops@example.org', 'a piped password')).toBeNull()
    expect(await authenticate('ops@example.org', 'another piped password')).not.toBeNull()
  }, 60_000)

  it('turns off the authenticator app, the passkeys and the sessions of someone who lost their phone and recovery codes', async () => {
    await admin(['create', '--email', 'lost@example.org', '--name', 'Lost'], 'a piped password\n')
    const user = await authenticate('lost@example.org', 'a piped password')
    await beginAuthenticatorSetup(user!.id)
    const { pendingSecret } = await getTwoStepStatus(user!.id)
    await confirmAuthenticator(user!.id, await generate({ secret: pendingSecret! }))
    expect(await getTwoStepStatus(user!.id)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 })
    const now = new Date().toISOString()
    await db
      .insertInto('passkeys')
      .values({
        id: 'on-the-lost-phone',
        userId: user!.id,
        name: 'Phone',
        publicKey: 'key',
        counter: 0,
        transports: '[]',
        createdAt: now,
      })
      .execute()
    const session = await createSession(user!.id, { userAgent: null, clientAddress: '192.0.2.1' })

    const result = await admin(['turn-off-two-step', '--email', 'lost@example.org'])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('1 passkey(s) removed')
    expect(await getTwoStepStatus(user!.id)).toEqual({ enabled: false, recoveryCodesLeft: 0, pendingSecret: null })
    expect(await listPasskeys(user!.id)).toEqual([])
    expect(await getSessionUser(session.id)).toBeNull()
  }, 60_000)

  it('never takes a password from the command line', async () => {
    const result = await admin(['create', '--email', 'x@example.org', '--password', 'visible in ps'], 'a piped password\n')
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Passwords are not accepted on the command line')
    expect(await authenticate('x@example.org', 'visible in ps')).toBeNull()
  }, 30_000)

  it('explains bad input instead of failing with a stack trace', async () => {
    const weak = await admin(['create', '--email', 'y@example.org', '--role', 'marketplace'], 'short\n')
    expect(weak).toMatchObject({ code: 1, stderr: 'Password must be at least 10 characters\n' })
    const unknown = await admin(['reset-password', '--email', 'nobody@example.org'], 'long enough password\n')
    expect(unknown).toMatchObject({ code: 1, stderr: 'No user has the e-mail nobody@example.org.\n' })
    const usage = await admin(['frobnicate'])
    expect(usage.code).toBe(1)
    expect(usage.stderr).toContain('Usage:')
  }, 60_000)
})
