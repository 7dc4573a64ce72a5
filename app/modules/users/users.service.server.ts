import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import { canManage, type Role } from '~/platform/access'
import { db, lockForUpdate, nowIso } from '~/platform/db.server'
import type { Database } from '~/platform/db-schema'
import { hashPassword, verifyAgainstDummy, verifyPassword } from '~/platform/password.server'
import { createRateLimiter, minutesToWait } from '~/platform/rate-limit.server'
import {
  createSession,
  revokeUserSessions,
  type NewSession,
  type SessionDevice,
  type SessionUser,
} from '~/platform/session.server'
import type { NewUserInput } from './users.schema'
import { withdrawInvitationsMadeBy } from './account-links.server'
import { removeAllPasskeys } from './passkeys.server'

/** A request the rules refuse; `field` names the form field to show it on, if any. */
export class UserRuleError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

export const LAST_ADMIN_MESSAGE = 'The last administrator cannot be removed or given another role.'
export const DUPLICATE_EMAIL_MESSAGE = 'A user with this e-mail already exists'

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string }
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '')
}

export async function createUser(input: NewUserInput): Promise<SessionUser> {
  const now = nowIso()
  const user = { id: crypto.randomUUID(), email: input.email, name: input.name, role: input.role }
  const passwordHash = await hashPassword(input.password)
  try {
    await db
      .insertInto('users')
      .values({ ...user, passwordHash, createdAt: now, updatedAt: now })
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserRuleError(DUPLICATE_EMAIL_MESSAGE, 'email')
    throw error
  }
  return user
}

/** The user for a correct e-mail and password; the same work is done for unknown e-mails. */
export async function authenticate(email: string, password: string): Promise<SessionUser | null> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'passwordHash'])
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst()
  if (!row) return verifyAgainstDummy(password).then(() => null)
  if (!(await verifyPassword(row.passwordHash, password))) return null
  return { id: row.id, email: row.email, name: row.name, role: row.role }
}

/**
 * Runs `change` on a user while no other transaction can change who is an admin, and refuses it
 * when it would leave no admin. PostgreSQL needs the admin rows locked; SQLite's BEGIN IMMEDIATE
 * already serialises writers.
 */
async function withAdminGuard(
  userId: string,
  staysAdmin: boolean,
  change: (trx: Kysely<Database>) => Promise<void>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const admins = lockForUpdate(trx.selectFrom('users').select(['id']).where('role', '=', 'admin'))
    const adminIds = (await admins.execute()).map((r) => r.id)
    const target = await trx.selectFrom('users').select(['role']).where('id', '=', userId).executeTakeFirst()
    if (!target) throw new UserRuleError('This user no longer exists.')
    if (target.role === 'admin' && !staysAdmin && adminIds.length <= 1) throw new UserRuleError(LAST_ADMIN_MESSAGE)
    await change(trx)
  })
}

/** Removes a user, ends their sessions and withdraws the invitations they made. */
export async function removeUser(userId: string): Promise<void> {
  await withAdminGuard(userId, false, async (trx) => {
    await revokeUserSessions(userId, trx)
    await withdrawInvitationsMadeBy(userId, trx)
    await trx.deleteFrom('users').where('id', '=', userId).execute()
  })
}

/** Changes a role; the user signs in again so no session keeps rights it should not have. */
export async function changeUserRole(userId: string, role: Role): Promise<void> {
  await withAdminGuard(userId, role === 'admin', async (trx) => {
    const result = await trx
      .updateTable('users')
      .set({ role, updatedAt: nowIso() })
      .where('id', '=', userId)
      .where('role', '!=', role)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) return
    await revokeUserSessions(userId, trx)
    if (!canManage({ role }, 'users')) await withdrawInvitationsMadeBy(userId, trx)
  })
}

/**
 * Sets a new password chosen by an admin (or the CLI), signs the user out everywhere and removes
 * their passkeys (one added from a stolen session would otherwise outlive the reset).
 */
export async function resetUserPassword(userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password)
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('users')
      .set({ passwordHash, updatedAt: nowIso() })
      .where('id', '=', userId)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) throw new UserRuleError('This user no longer exists.')
    await revokeUserSessions(userId, trx)
    await removeAllPasskeys(userId, trx)
  })
}

const currentPasswordChecks = createRateLimiter('current-password', { attempts: 5, windowSeconds: 15 * 60 })

/**
 * Checks the password a signed-in user typed again (to change it, or to confirm it is them), at
 * most five times in 15 minutes: a borrowed or stolen session must not become a way to guess it.
 */
export async function checkCurrentPassword(userId: string, password: string): Promise<void> {
  const verdict = await currentPasswordChecks.hit(userId)
  if (verdict.limited) {
    throw new UserRuleError(
      `Too many attempts. Please try again in ${minutesToWait(verdict.retryAfterSeconds)}.`,
      'currentPassword',
    )
  }
  const row = await db.selectFrom('users').select(['passwordHash']).where('id', '=', userId).executeTakeFirst()
  if (!row || !(await verifyPassword(row.passwordHash, password))) {
    throw new UserRuleError('Current password is incorrect', 'currentPassword')
  }
  await currentPasswordChecks.reset(userId)
}

/**
 * A user's own password change: checks the current one, ends every session (a thief's too)
 * and returns a fresh one for the browser that made the change.
 */
export async function changeOwnPassword(
  userId: string,
  currentPassword: string,
  newPassword: string,
  device: SessionDevice,
): Promise<NewSession> {
  await checkCurrentPassword(userId, currentPassword)
  const passwordHash = await hashPassword(newPassword)
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ passwordHash, updatedAt: nowIso() }).where('id', '=', userId).execute()
    await revokeUserSessions(userId, trx)
    return createSession(userId, device, trx)
  })
}

/** Gives a user another name (their own, or by an administrator): how invitations and e-mails greet them. */
export async function renameUser(userId: string, name: string): Promise<void> {
  await db.updateTable('users').set({ name, updatedAt: nowIso() }).where('id', '=', userId).execute()
}

export async function findUserIdByEmail(email: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select(['id']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst()
  return row?.id
}
