import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { canManage } from '~/platform/access'
import { db, nowIso } from '~/platform/db.server'
import type { Database } from '~/platform/db-schema'
import { canSendEmail } from '~/platform/email.server'
import { hashPassword } from '~/platform/password.server'
import type { SessionUser } from '~/platform/session.server'
import { emailPerson, sendInBackground } from './account-emails.server'
import { findUsableLink, issueAccountLink, spendLink, type IssuedLink } from './account-links.server'
import { INVITATION_LIMIT, INVITATION_MESSAGES, ROLE_LABELS, type InviteInput } from './users.schema'
import { DUPLICATE_EMAIL_MESSAGE, isUniqueViolation, UserRuleError } from './users.service.server'

export interface PendingInvitation {
  id: string
  email: string
  role: SessionUser['role']
  expiresAt: string
  invitedBy: string | null
}

function pendingInvitations(now: string) {
  return db
    .selectFrom('accountLinks')
    .where('purpose', '=', 'invitation')
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
}

export async function listPendingInvitations(): Promise<PendingInvitation[]> {
  const rows = await pendingInvitations(nowIso())
    .leftJoin('users', 'users.id', 'accountLinks.createdBy')
    .select(['accountLinks.id', 'accountLinks.email', 'accountLinks.role', 'accountLinks.expiresAt', 'users.name as invitedBy'])
    .orderBy('accountLinks.createdAt', 'desc')
    .limit(INVITATION_LIMIT)
    .execute()
  return rows.map((row) => ({ ...row, role: row.role ?? 'marketplace' }))
}

export function invitationUrl(siteOrigin: string, link: IssuedLink): string {
  return new URL(`/join/${link.token}`, siteOrigin).href
}

/**
 * Invites a person by e-mail with a role; a new invitation to the same address replaces the one
 * waiting. With SMTP the link is e-mailed (in the background); the caller shows it otherwise.
 */
export async function inviteUser(input: InviteInput, by: SessionUser, siteOrigin: string): Promise<IssuedLink> {
  const link = await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst()
    if (existing) throw new UserRuleError(DUPLICATE_EMAIL_MESSAGE, 'email')
    await trx
      .deleteFrom('accountLinks')
      .where('purpose', '=', 'invitation')
      .where('email', '=', input.email)
      .where('usedAt', 'is', null)
      .execute()
    const { count } = await trx
      .selectFrom('accountLinks')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('purpose', '=', 'invitation')
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', nowIso())
      .executeTakeFirstOrThrow()
    if (Number(count) >= INVITATION_LIMIT) throw new UserRuleError(INVITATION_MESSAGES.tooMany)
    return issueAccountLink({ purpose: 'invitation', email: input.email, role: input.role, createdBy: by.id }, trx)
  })
  if (canSendEmail()) {
    sendInBackground('an invitation e-mail', async () => {
      const { organisationName } = await getSiteSettings()
      await emailPerson({ name: '', address: input.email }, `You are invited to help run the ${organisationName} website`, [
        'Hello,',
        '',
        `${by.name} invites you to help run the ${organisationName} website, as: ${ROLE_LABELS[input.role]}.`,
        'Open this link within 7 days to choose your name and password. It works once:',
        '',
        invitationUrl(siteOrigin, link),
        '',
        'If you do not know what this is about, ignore this e-mail.',
      ])
    })
  }
  return link
}

/** Withdraws a waiting invitation; its e-mail address, or null when it was no longer waiting. */
export async function withdrawInvitation(id: string): Promise<string | null> {
  const row = await db
    .deleteFrom('accountLinks')
    .where('id', '=', id)
    .where('purpose', '=', 'invitation')
    .where('usedAt', 'is', null)
    .returning(['email'])
    .executeTakeFirst()
  return row?.email ?? null
}

/** Whether the person who made an invitation is still here and may still give accounts. */
async function inviterMayStillInvite(createdBy: string | null, executor: Kysely<Database> = db): Promise<boolean> {
  if (!createdBy) return false
  const inviter = await executor.selectFrom('users').select('role').where('id', '=', createdBy).executeTakeFirst()
  return canManage(inviter, 'users')
}

/** What an invitation link offers, while it can still be used (reads only). */
export async function findInvitation(token: string): Promise<{ email: string; role: SessionUser['role'] } | null> {
  const link = await findUsableLink(token, 'invitation')
  if (!link?.role || !(await inviterMayStillInvite(link.createdBy))) return null
  return { email: link.email, role: link.role }
}

/** Creates the invited person's account with the name and password they chose, using the link up. */
export async function joinWithInvitation(token: string, input: { name: string; password: string }): Promise<SessionUser> {
  const link = await findUsableLink(token, 'invitation')
  if (!link?.role) throw new UserRuleError(INVITATION_MESSAGES.unusable)
  const user: SessionUser = { id: crypto.randomUUID(), email: link.email, name: input.name, role: link.role }
  const passwordHash = await hashPassword(input.password)
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await inviterMayStillInvite(link.createdBy, trx)) || !(await spendLink(link.id, trx))) {
        throw new UserRuleError(INVITATION_MESSAGES.unusable)
      }
      const now = nowIso()
      await trx
        .insertInto('users')
        .values({ ...user, passwordHash, createdAt: now, updatedAt: now })
        .execute()
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserRuleError(INVITATION_MESSAGES.taken)
    throw error
  }
  return user
}
