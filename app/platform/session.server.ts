import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import { db, nowIso } from './db.server'
import type { Database, UserTable } from './db-schema'

/** The signed-in user as loaders and actions see it. */
export interface SessionUser {
  id: string
  email: string
  name: string
  role: UserTable['role']
}

export const SESSION_COOKIE = 'sid'
/** A session ends after this long without a request... */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000
/** ...and in any case this long after sign-in. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000
// Writing last-seen on every request would turn each page view into a write: at most once in 5
// minutes per session, far inside the idle limit, and precise enough for the list of devices.
export const TOUCH_INTERVAL_MS = 5 * 60 * 1000
/** Changing how an account signs in needs a sign-in, or the password typed again, this recent. */
export const CONFIRMATION_WINDOW_MS = 15 * 60 * 1000

/** The app's db or a transaction on it. */
type Executor = Kysely<Database>

/** Only this hash is stored, so a leaked database row cannot be replayed as a cookie. */
function hashSessionId(id: string): string {
  return crypto.createHash('sha256').update(id).digest('hex')
}

export interface NewSession {
  id: string
  expiresAt: Date
}

/** The browser and address a session begins from, shown in the account's list of devices. */
export interface SessionDevice {
  userAgent: string | null
  clientAddress: string
}

/** The device of a request, as a session records it. */
export function deviceOf(request: Request, clientAddress: string): SessionDevice {
  // A User-Agent is usually under 300 characters; a longer one is not kept whole.
  return { userAgent: request.headers.get('user-agent')?.slice(0, 500) || null, clientAddress }
}

/** Starts a session with a fresh random 256-bit id (never one the browser proposed), just after its owner proved who they are. */
export async function createSession(userId: string, device: SessionDevice, executor: Executor = db): Promise<NewSession> {
  const id = crypto.randomBytes(32).toString('base64url')
  const now = new Date()
  const expiresAt = new Date(now.getTime() + SESSION_MAX_AGE_MS)
  await executor
    .insertInto('sessions')
    .values({
      idHash: hashSessionId(id),
      userId,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
      userAgent: device.userAgent,
      clientAddress: device.clientAddress,
      confirmedAt: now.toISOString(),
    })
    .execute()
  return { id, expiresAt }
}

/** The user behind a session id, or null when it is unknown, idle too long or past its lifetime. */
export async function getSessionUser(sessionId: string): Promise<SessionUser | null> {
  const idHash = hashSessionId(sessionId)
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select(['users.id', 'users.email', 'users.name', 'users.role', 'sessions.lastSeenAt', 'sessions.expiresAt'])
    .where('sessions.idHash', '=', idHash)
    .executeTakeFirst()
  if (!row) return null
  const now = Date.now()
  const lastSeen = Date.parse(row.lastSeenAt)
  if (now >= Date.parse(row.expiresAt) || now - lastSeen >= SESSION_IDLE_MS) {
    await db.deleteFrom('sessions').where('idHash', '=', idHash).execute()
    return null
  }
  if (now - lastSeen >= TOUCH_INTERVAL_MS) {
    await db.updateTable('sessions').set({ lastSeenAt: nowIso() }).where('idHash', '=', idHash).execute()
  }
  return { id: row.id, email: row.email, name: row.name, role: row.role }
}

/** Whether the session's owner signed in or typed their password within the confirmation window. */
export async function isConfirmedRecently(sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('confirmedAt')
    .where('idHash', '=', hashSessionId(sessionId))
    .executeTakeFirst()
  const confirmed = row ? Date.parse(row.confirmedAt) : NaN
  return Date.now() - confirmed < CONFIRMATION_WINDOW_MS
}

/** Records that the session's owner has just typed their password again. */
export async function markConfirmed(sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ confirmedAt: nowIso() }).where('idHash', '=', hashSessionId(sessionId)).execute()
}

export async function revokeSession(sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('idHash', '=', hashSessionId(sessionId)).execute()
}

/** Ends every session of a user (removal, role change, password reset). */
export async function revokeUserSessions(userId: string, executor: Executor = db): Promise<void> {
  await executor.deleteFrom('sessions').where('userId', '=', userId).execute()
}

/** A session in the account's list of devices; `key` names it in forms (a hash of a hash: never the cookie). */
export interface ListedSession {
  key: string
  current: boolean
  userAgent: string | null
  clientAddress: string | null
  createdAt: string
  lastSeenAt: string
}

function sessionKey(idHash: string): string {
  return crypto.createHash('sha256').update(`listed\n${idHash}`).digest('hex').slice(0, 32)
}

/** A user's sessions that can still be used, the most recently active first (one user has few). */
export async function listUserSessions(userId: string, currentSessionId: string | null): Promise<ListedSession[]> {
  const currentHash = currentSessionId ? hashSessionId(currentSessionId) : null
  const now = Date.now()
  const rows = await db
    .selectFrom('sessions')
    .select(['idHash', 'userAgent', 'clientAddress', 'createdAt', 'lastSeenAt'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', new Date(now).toISOString())
    .where('lastSeenAt', '>', new Date(now - SESSION_IDLE_MS).toISOString())
    .orderBy('lastSeenAt', 'desc')
    .limit(100)
    .execute()
  return rows.map(({ idHash, ...row }) => ({ ...row, key: sessionKey(idHash), current: idHash === currentHash }))
}

/**
 * Ends the user's sessions named by `key`, or all but the current one when `key` is null; the
 * current session is never ended here (signing out does that). Returns how many ended.
 */
export async function revokeOtherSessions(userId: string, currentSessionId: string, key: string | null): Promise<number> {
  const others = db.deleteFrom('sessions').where('userId', '=', userId).where('idHash', '!=', hashSessionId(currentSessionId))
  if (key === null) return Number((await others.executeTakeFirst()).numDeletedRows)
  const rows = await db.selectFrom('sessions').select('idHash').where('userId', '=', userId).limit(1000).execute()
  const idHash = rows.find((row) => sessionKey(row.idHash) === key)?.idHash
  if (!idHash) return 0
  return Number((await others.where('idHash', '=', idHash).executeTakeFirst()).numDeletedRows)
}

/** Removes sessions that can no longer be used; idle ones are caught by their last-seen time. */
export async function deleteExpiredSessions(): Promise<void> {
  const now = Date.now()
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('expiresAt', '<=', new Date(now).toISOString()),
        eb('lastSeenAt', '<=', new Date(now - SESSION_IDLE_MS).toISOString()),
      ]),
    )
    .execute()
}

export function readSessionId(request: Request): string | null {
  const cookies = request.headers.get('cookie')?.split(/;\s*/) ?? []
  const value = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))?.slice(SESSION_COOKIE.length + 1)
  // Our ids are 43 base64url characters; anything else cannot be one.
  return value && /^[\w-]{43}$/.test(value) ? value : null
}

export function sessionCookie(session: NewSession, secure: boolean): string {
  const maxAge = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)
  return `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`
}
