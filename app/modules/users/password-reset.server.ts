import crypto from 'node:crypto'
import { recordAuditEvent } from '~/modules/audit/audit.service.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { db } from '~/platform/db.server'
import { hashPassword } from '~/platform/password.server'
import { clientRateLimitKey } from '~/platform/client-address.server'
import { createRateLimiter } from '~/platform/rate-limit.server'
import { revokeUserSessions, type SessionUser } from '~/platform/session.server'
import { emailPerson, sendInBackground } from './account-emails.server'
import { findUserOfLink, issueAccountLink, passwordFingerprint, claimLinkOfUser, type IssuedLink } from './account-links.server'
import { removeAllPasskeys } from './passkeys.server'
import { PASSWORD_RESET_MESSAGES } from './users.schema'
import { UserRuleError } from './users.service.server'

const HOUR = 60 * 60
// Per client, like sign-in; per address too, so nobody can fill a person's mailbox with links.
const perClient = createRateLimiter('password-reset-client', { attempts: 10, windowSeconds: HOUR })
const perEmail = createRateLimiter('password-reset-email', { attempts: 3, windowSeconds: HOUR })

export type ResetRequestOutcome = { ok: true } | { ok: false; retryAfterSeconds: number }

/**
 * Asks for a reset link to be e-mailed to `email`. The answer is the same, and as quick, whether
 * or not the address has an account: the throttles count every request, and the lookup and the
 * e-mail happen after the answer, in the background.
 */
export async function requestPasswordReset(input: {
  email: string
  clientIp: string
  siteOrigin: string
}): Promise<ResetRequestOutcome> {
  const email = input.email.trim().toLowerCase()
  const verdicts = await Promise.all([
    perClient.hit(clientRateLimitKey(input.clientIp)),
    // Hashed so that no e-mail address sits in the counter table.
    perEmail.hit(crypto.createHash('sha256').update(email).digest('hex')),
  ])
  const limited = verdicts.filter((v) => v.limited)
  if (limited.length > 0) return { ok: false, retryAfterSeconds: Math.max(...limited.map((v) => v.retryAfterSeconds)) }
  sendInBackground('a password reset e-mail', () => emailResetLink(email, input.clientIp, input.siteOrigin))
  return { ok: true }
}

async function emailResetLink(email: string, clientAddress: string, siteOrigin: string): Promise<void> {
  const user = await db.selectFrom('users').select(['id', 'email', 'name']).where('email', '=', email).executeTakeFirst()
  if (!user) return
  const { organisationName } = await getSiteSettings()
  const link = await issueResetLink(user.id)
  await emailPerson({ name: user.name, address: user.email }, `Choose a new password for ${organisationName}`, [
    `Hello ${user.name},`,
    '',
    `Someone (we hope you) asked for a new password for your account on the ${organisationName} website.`,
    'Open this link within an hour to choose one. It works once:',
    '',
    resetLinkUrl(siteOrigin, link),
    '',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ])
  await recordAuditEvent({
    by: { actor: { id: null, email, name: '' }, clientAddress },
    action: 'account.reset-link-sent',
    target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
  })
}

export function resetLinkUrl(siteOrigin: string, link: IssuedLink): string {
  return new URL(`/reset-password/${link.token}`, siteOrigin).href
}

/**
 * A one-time link for a user to choose a new password, valid for an hour: e-mailed, or made by
 * an administrator to pass on by hand.
 */
export async function issueResetLink(userId: string, createdBy?: SessionUser): Promise<IssuedLink> {
  const user = await db.selectFrom('users').select(['email', 'passwordHash']).where('id', '=', userId).executeTakeFirst()
  if (!user) throw new UserRuleError('This user no longer exists.')
  return issueAccountLink({
    purpose: 'password-reset',
    userId,
    email: user.email,
    passwordFingerprint: passwordFingerprint(user.passwordHash),
    createdBy: createdBy?.id ?? null,
  })
}

/** The user a reset link is for, while it can still be used (reads only: opening the page uses nothing up). */
export async function findUserOfResetLink(token: string): Promise<Pick<SessionUser, 'id' | 'email' | 'name'> | null> {
  return (await findUserOfLink(token, 'password-reset'))?.user ?? null
}

/**
 * Sets the password a reset link's owner chose, uses the link up, ends every session of the
 * account and removes its passkeys. Refused when the link is unknown, used, expired, or the password changed since.
 */
export async function resetPasswordWithLink(
  token: string,
  newPassword: string,
): Promise<Pick<SessionUser, 'id' | 'email' | 'name'>> {
  const user = await findUserOfResetLink(token)
  if (!user) throw new UserRuleError(PASSWORD_RESET_MESSAGES.unusable)
  const passwordHash = await hashPassword(newPassword)
  const linkId = token.split('.')[0]
  await db.transaction().execute(async (trx) => {
    if (!(await claimLinkOfUser(linkId, user.id, trx))) throw new UserRuleError(PASSWORD_RESET_MESSAGES.unusable)
    await trx.updateTable('users').set({ passwordHash, updatedAt: new Date().toISOString() }).where('id', '=', user.id).execute()
    await revokeUserSessions(user.id, trx)
    await removeAllPasskeys(user.id, trx)
  })
  return user
}
