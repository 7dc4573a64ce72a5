import { describe, expect, it } from 'vitest'
import { createSession, getSessionUser } from '~/platform/session.server'
import { listUsersForAdmin } from './users.queries.server'
import {
  authenticate,
  changeOwnPassword,
  changeUserRole,
  createUser,
  LAST_ADMIN_MESSAGE,
  removeUser,
  resetUserPassword,
  UserRuleError,
} from './users.service.server'

const DEVICE = { userAgent: null, clientAddress: '192.0.2.1' }

const PASSWORD = 'correct horse battery'

function addAdmin(email = 'ana@example.org') {
  return createUser({ email, name: 'Ana', role: 'admin', password: PASSWORD })
}

describe('users', () => {
  it('adds a user who can then sign in with that password', async () => {
    const user = await createUser({ email: 'ben@example.org', name: 'Ben', role: 'marketplace', password: PASSWORD })
    expect(await authenticate('Ben@Example.org ', PASSWORD)).toEqual(user)
    expect(await authenticate('ben@example.org', 'wrong password')).toBeNull()
    expect(await authenticate('nobody@example.org', PASSWORD)).toBeNull()
    expect(await listUsersForAdmin()).toEqual([expect.objectContaining({ email: 'ben@example.org', role: 'marketplace' })])
  })

  it('refuses a second user with the same e-mail, on the e-mail field', async () => {
    await addAdmin()
    const error = await createUser({ email: 'ana@example.org', name: 'Other', role: 'admin', password: PASSWORD }).catch((e) => e)
    expect(error).toBeInstanceOf(UserRuleError)
    expect(error).toMatchObject({ field: 'email', message: 'A user with this e-mail already exists' })
  })

  it('ends every session of a removed user', async () => {
    await addAdmin()
    const ben = await createUser({ email: 'ben@example.org', name: 'Ben', role: 'admin', password: PASSWORD })
    const session = await createSession(ben.id, DEVICE)
    await removeUser(ben.id)
    expect(await getSessionUser(session.id)).toBeNull()
    expect(await authenticate('ben@example.org', PASSWORD)).toBeNull()
  })

  it('ends the sessions of a user whose role changes', async () => {
    await addAdmin()
    const ben = await createUser({ email: 'ben@example.org', name: 'Ben', role: 'admin', password: PASSWORD })
    const session = await createSession(ben.id, DEVICE)
    await changeUserRole(ben.id, 'marketplace')
    expect(await getSessionUser(session.id)).toBeNull()
    const again = await createSession(ben.id, DEVICE)
    expect(await getSessionUser(again.id)).toMatchObject({ role: 'marketplace' })
  })

  it('keeps the sessions when the role is saved unchanged', async () => {
    const ana = await addAdmin()
    const session = await createSession(ana.id, DEVICE)
    await changeUserRole(ana.id, 'admin')
    expect(await getSessionUser(session.id)).not.toBeNull()
  })

  it('never removes or demotes the last admin', async () => {
    const ana = await addAdmin()
    await expect(removeUser(ana.id)).rejects.toThrow(LAST_ADMIN_MESSAGE)
    await expect(changeUserRole(ana.id, 'marketplace')).rejects.toThrow(LAST_ADMIN_MESSAGE)
    // with a second admin, either may go
    const ben = await createUser({ email: 'ben@example.org', name: 'Ben', role: 'admin', password: PASSWORD })
    await changeUserRole(ana.id, 'marketplace')
    await expect(removeUser(ben.id)).rejects.toThrow(LAST_ADMIN_MESSAGE)
  })

  it('never lets two concurrent demotions leave no admin', async () => {
    const ana = await addAdmin()
    const ben = await createUser({ email: 'ben@example.org', name: 'Ben', role: 'admin', password: PASSWORD })
    const results = await Promise.allSettled([changeUserRole(ana.id, 'marketplace'), changeUserRole(ben.id, 'marketplace')])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect((await listUsersForAdmin()).filter((u) => u.role === 'admin')).toHaveLength(1)
  })

  it('resets a password and signs the user out everywhere', async () => {
    await addAdmin()
    const ben = await createUser({ email: 'ben@example.org', name: 'Ben', role: 'marketplace', password: PASSWORD })
    const session = await createSession(ben.id, DEVICE)
    await resetUserPassword(ben.id, 'a brand new password')
    expect(await getSessionUser(session.id)).toBeNull()
    expect(await authenticate('ben@example.org', PASSWORD)).toBeNull()
    expect(await authenticate('ben@example.org', 'a brand new password')).not.toBeNull()
  })

  it('changes one’s own password only with the current one, keeping just the new session', async () => {
    const ana = await addAdmin()
    const here = await createSession(ana.id, DEVICE)
    const elsewhere = await createSession(ana.id, DEVICE)
    await expect(changeOwnPassword(ana.id, 'not my password', 'a brand new password', DEVICE)).rejects.toMatchObject({
      field: 'currentPassword',
      message: 'Current password is incorrect',
    })
    const fresh = await changeOwnPassword(ana.id, PASSWORD, 'a brand new password', DEVICE)
    expect(await getSessionUser(here.id)).toBeNull()
    expect(await getSessionUser(elsewhere.id)).toBeNull()
    expect(await getSessionUser(fresh.id)).toMatchObject({ id: ana.id })
    expect(await authenticate('ana@example.org', 'a brand new password')).not.toBeNull()
  })

  it('stops guessing of the current password through a signed-in session', async () => {
    const ana = await addAdmin()
    for (let i = 0; i < 5; i++) {
      await expect(changeOwnPassword(ana.id, `guess ${i}`, 'a brand new password', DEVICE)).rejects.toThrow(
        'Current password is incorrect',
      )
    }
    await expect(changeOwnPassword(ana.id, PASSWORD, 'a brand new password', DEVICE)).rejects.toMatchObject({
      field: 'currentPassword',
      message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/),
    })
  })
})
