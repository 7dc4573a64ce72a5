import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import { db, lockForUpdate, nowIso } from '~/platform/db.server'
import type { AccountLinkTable, Database } from '~/platform/db-schema'
import { hashOfSecret, newSecretToken } from '~/platform/secret-tokens.server'

/**
 * One-time links (a forgotten password, an invitation, the new site's setup, a new e-mail address). The link carries the row's id and a
 * random 256-bit secret; the row keeps only the secret's SHA-256, compared in constant time, so
 * a leaked database cannot be turned into working links.
 */
export type AccountLinkPurpose = AccountLinkTable['purpose']

export const LINK_LIFETIME_MS: Record<AccountLinkPurpose, number> = {
  'password-reset': 60 * 60_000,
  invitation: 7 * 24 * 60 * 60_000,
  setup: 60 * 60_000,
  'email-change': 60 * 60_000,
}

type Executor = Kysely<Database>

/** Changes whenever the password does (argon2 salts every hash), without storing the hash twice. */
export function passwordFingerprint(passwordHash: string): string {
  return hashOfSecret(passwordHash)
}

export type NewAccountLink = Pick<AccountLinkTable, 'purpose' | 'email'> &
  Partial<Pick<AccountLinkTable, 'userId' | 'role' | 'passwordFingerprint' | 'createdBy'>>

export interface IssuedLink {
  id: string
  /** What goes in the link's path: shown or sent once, never stored. */
  token: string
  expiresAt: string
}

export async function issueAccountLink(link: NewAccountLink, executor: Executor = db): Promise<IssuedLink> {
  const id = crypto.randomUUID()
  const secret = newSecretToken()
  const now = Date.now()
  const expiresAt = new Date(now + LINK_LIFETIME_MS[link.purpose]).toISOString()
  // Links that ran out are of no more use: each new one sweeps them, so the table stays small.
  await executor.deleteFrom('accountLinks').where('expiresAt', '<=', new Date(now).toISOString()).execute()
  await executor
    .insertInto('accountLinks')
    .values({
      id,
      purpose: link.purpose,
      secretHash: hashOfSecret(secret),
      userId: link.userId ?? null,
      email: link.email,
      role: link.role ?? null,
      passwordFingerprint: link.passwordFingerprint ?? null,
      createdBy: link.createdBy ?? null,
      createdAt: new Date(now).toISOString(),
      expiresAt,
      usedAt: null,
    })
    .execute()
  return { id, token: `${id}.${secret}`, expiresAt }
}

const TOKEN_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{43})$/

export type AccountLink = Omit<AccountLinkTable, 'secretHash'>

/** The link a token names, if its secret is right and it is neither used nor expired (reads only). */
export async function findUsableLink(
  token: string,
  purpose: AccountLinkPurpose,
  executor: Executor = db,
): Promise<AccountLink | null> {
  const [, id, secret] = TOKEN_PATTERN.exec(token) ?? []
  if (!id || !secret) return null
  const row = await executor
    .selectFrom('accountLinks')
    .selectAll()
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .executeTakeFirst()
  if (!row) return null
  const matches = crypto.timingSafeEqual(Buffer.from(row.secretHash, 'hex'), Buffer.from(hashOfSecret(secret), 'hex'))
  if (!matches || row.usedAt !== null || Date.parse(row.expiresAt) <= Date.now()) return null
  const { secretHash: _secretHash, ...link } = row
  return link
}

/**
 * The account a link of the password's kind (a reset, an e-mail change) is for, while the link can
 * be used and the password is the one it was made with (reads only: opening the page uses nothing up).
 */
export async function findUserOfLink(
  token: string,
  purpose: 'password-reset' | 'email-change',
): Promise<{ link: AccountLink; user: { id: string; email: string; name: string } } | null> {
  const link = await findUsableLink(token, purpose)
  if (!link?.userId) return null
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'passwordHash'])
    .where('id', '=', link.userId)
    .executeTakeFirst()
  if (!user || passwordFingerprint(user.passwordHash) !== link.passwordFingerprint) return null
  return { link, user: { id: user.id, email: user.email, name: user.name } }
}

/**
 * Uses up a link found by findUserOfLink inside the transaction that acts on it, the user's row
 * locked: false when the password changed or the link was used meanwhile, which then wins.
 */
export async function claimLinkOfUser(linkId: string, userId: string, trx: Executor): Promise<boolean> {
  const row = await lockForUpdate(trx.selectFrom('users').select(['passwordHash']).where('id', '=', userId)).executeTakeFirst()
  const link = await trx.selectFrom('accountLinks').select(['passwordFingerprint']).where('id', '=', linkId).executeTakeFirst()
  const unchanged = row && link && passwordFingerprint(row.passwordHash) === link.passwordFingerprint
  return !!unchanged && (await spendLink(linkId, trx))
}

/** Uses a link up; false when it was used (or ran out) meanwhile, so only one request wins it. */
export async function spendLink(id: string, executor: Executor): Promise<boolean> {
  const now = nowIso()
  const result = await executor
    .updateTable('accountLinks')
    .set({ usedAt: now })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * Withdraws the invitations a person made that wait still: they are removed, or may no longer
 * give accounts (checked again when an invitation is used).
 */
export async function withdrawInvitationsMadeBy(userId: string, executor: Executor): Promise<void> {
  await executor
    .deleteFrom('accountLinks')
    .where('purpose', '=', 'invitation')
    .where('createdBy', '=', userId)
    .where('usedAt', 'is', null)
    .execute()
}
