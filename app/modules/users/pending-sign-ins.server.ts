import type { Role } from '~/platform/access'
import { db, nowIso } from '~/platform/db.server'
import type { PendingSignInTable } from '~/platform/db-schema'
import { hashOfSecret, newSecretToken } from '~/platform/secret-tokens.server'
import { getRolesRequiringTwoStep, getTwoStepStatus } from './two-step.server'

/**
 * Pending sign-ins: the password was right and the second step is still to come. A table row whose
 * random id sits in a cookie limited to /login; only a right code (or the app's setup) ends it in a
 * session, once.
 */

export const PENDING_SIGN_IN_COOKIE = 'two_step'
const PENDING_SIGN_IN_MS = 10 * 60 * 1000

export type PendingPurpose = PendingSignInTable['purpose']

export interface NewPendingSignIn {
  id: string
  purpose: PendingPurpose
  expiresAt: Date
}

/** What follows a right password: a session at once, a code, or setting up the app the role requires. */
export async function stepAfterPassword(user: { id: string; role: Role }): Promise<'session' | PendingPurpose> {
  const [status, required] = await Promise.all([getTwoStepStatus(user.id), getRolesRequiringTwoStep()])
  if (status.enabled) return 'second-step'
  return required.includes(user.role) ? 'setup' : 'session'
}

export async function startPendingSignIn(userId: string, purpose: PendingPurpose, redirectTo: string): Promise<NewPendingSignIn> {
  const id = newSecretToken()
  const expiresAt = new Date(Date.now() + PENDING_SIGN_IN_MS)
  await db.deleteFrom('pendingSignIns').where('expiresAt', '<=', nowIso()).execute()
  await db
    .insertInto('pendingSignIns')
    .values({ idHash: hashOfSecret(id), userId, purpose, redirectTo, expiresAt: expiresAt.toISOString() })
    .execute()
  return { id, purpose, expiresAt }
}

export interface PendingSignIn {
  user: { id: string; email: string; name: string; role: Role }
  purpose: PendingPurpose
  redirectTo: string
}

/** The pending sign-in behind this browser's cookie, while it lasts. */
export async function getPendingSignIn(request: Request): Promise<PendingSignIn | null> {
  const id = readPendingSignInId(request)
  if (!id) return null
  const row = await db
    .selectFrom('pendingSignIns')
    .innerJoin('users', 'users.id', 'pendingSignIns.userId')
    .select(['users.id', 'users.email', 'users.name', 'users.role', 'pendingSignIns.purpose', 'pendingSignIns.redirectTo'])
    .where('pendingSignIns.idHash', '=', hashOfSecret(id))
    .where('pendingSignIns.expiresAt', '>', nowIso())
    .executeTakeFirst()
  if (!row) return null
  return {
    user: { id: row.id, email: row.email, name: row.name, role: row.role },
    purpose: row.purpose,
    redirectTo: row.redirectTo,
  }
}

/** Ends the pending sign-in; true only for the one request that ended it, so it completes once. */
export async function finishPendingSignIn(request: Request): Promise<boolean> {
  const id = readPendingSignInId(request)
  if (!id) return false
  const deleted = await db.deleteFrom('pendingSignIns').where('idHash', '=', hashOfSecret(id)).executeTakeFirst()
  return Number(deleted.numDeletedRows) === 1
}

function readPendingSignInId(request: Request): string | null {
  const cookies = request.headers.get('cookie')?.split(/;\s*/) ?? []
  const prefix = `${PENDING_SIGN_IN_COOKIE}=`
  const value = cookies.find((c) => c.startsWith(prefix))?.slice(prefix.length)
  return value && /^[\w-]{43}$/.test(value) ? value : null
}

export function pendingSignInCookie(pending: NewPendingSignIn, secure: boolean): string {
  const maxAge = Math.floor((pending.expiresAt.getTime() - Date.now()) / 1000)
  return `${PENDING_SIGN_IN_COOKIE}=${pending.id}; Path=/login; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`
}

export function clearedPendingSignInCookie(secure: boolean): string {
  return `${PENDING_SIGN_IN_COOKIE}=; Path=/login; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`
}
