import { recordAuditEvent, type AuditSource } from '~/modules/audit/audit.service.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { db } from '~/platform/db.server'
import { createRateLimiter } from '~/platform/rate-limit.server'
import type { SessionUser } from '~/platform/session.server'
import { emailPerson, sendInBackground } from './account-emails.server'
import { findUserOfLink, issueAccountLink, passwordFingerprint, claimLinkOfUser } from './account-links.server'
import { EMAIL_CHANGE_MESSAGES } from './users.schema'
import { isUniqueViolation, UserRuleError } from './users.service.server'

/**
 * A person's own e-mail address changes only once the new address has proved to be theirs: a
 * link sent to it, valid for an hour, makes the change, and the old address is then told. Asking
 * needs the current password (the form asks for it), so a session alone cannot move the account
 * to another inbox. Nothing is ever sent to an address another account has: its owner is not
 * mailed, and the asker is answered as for any address, so the form reveals no account.
 */

// A day's worth per account: a mistyped address can be corrected, no inbox can be flooded.
const perUser = createRateLimiter('email-change-user', { attempts: 3, windowSeconds: 24 * 60 * 60 })

export type EmailChangeRequest = { ok: true } | { ok: false; retryAfterSeconds: number }

/** Sends the link that moves `user`'s account to `newEmail` (normalised already), in the background. */
export async function requestEmailChange(
  user: SessionUser,
  newEmail: string,
  { siteOrigin, by }: { siteOrigin: string; by: AuditSource },
): Promise<EmailChangeRequest> {
  if (newEmail === user.email) throw new UserRuleError(EMAIL_CHANGE_MESSAGES.same, 'email')
  const verdict = await perUser.hit(user.id)
  if (verdict.limited) return { ok: false, retryAfterSeconds: verdict.retryAfterSeconds }
  sendInBackground('an e-mail change link', async () => {
    const row = await db.selectFrom('users').select(['id', 'passwordHash']).where('email', '=', newEmail).executeTakeFirst()
    const own = await db.selectFrom('users').select(['passwordHash']).where('id', '=', user.id).executeTakeFirst()
    if (row || !own) return
    const link = await issueAccountLink({
      purpose: 'email-change',
      userId: user.id,
      email: newEmail,
      // A password changed meanwhile (a reset after a stolen session) ends the link.
      passwordFingerprint: passwordFingerprint(own.passwordHash),
    })
    const { organisationName } = await getSiteSettings()
    await emailPerson({ name: user.name, address: newEmail }, `Confirm your new e-mail address for ${organisationName}`, [
      `Hello ${user.name},`,
      '',
      `Someone (we hope you) asked to use this address for your account on the ${organisationName} website.`,
      'Open this link within an hour to confirm it. It works once:',
      '',
      new URL(`/account/email/${link.token}`, siteOrigin).href,
      '',
      'If you did not ask for this, ignore this e-mail: nothing changes.',
    ])
    await recordAuditEvent({
      by,
      action: 'account.email-change-requested',
      target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
    })
  })
  return { ok: true }
}

export interface EmailChangeLink {
  userId: string
  name: string
  oldEmail: string
  newEmail: string
}

/** Whose account a change link moves, and where to, while it can still be used (reads only). */
export async function findEmailChange(token: string): Promise<EmailChangeLink | null> {
  const found = await findUserOfLink(token, 'email-change')
  if (!found) return null
  const { link, user } = found
  return { userId: user.id, name: user.name, oldEmail: user.email, newEmail: link.email }
}

/**
 * Makes the change a link asks for: uses the link up, sets the address and withdraws the
 * password-reset links sent to the old one. Refused when the link is unusable or the address has
 * been taken by another account meanwhile. The old address is told, in the background.
 */
export async function confirmEmailChange(token: string, clientAddress: string): Promise<EmailChangeLink> {
  const change = await findEmailChange(token)
  if (!change) throw new UserRuleError(EMAIL_CHANGE_MESSAGES.unusable)
  const linkId = token.split('.')[0]
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await claimLinkOfUser(linkId, change.userId, trx))) throw new UserRuleError(EMAIL_CHANGE_MESSAGES.unusable)
      await trx
        .updateTable('users')
        .set({ email: change.newEmail, updatedAt: new Date().toISOString() })
        .where('id', '=', change.userId)
        .execute()
      await trx
        .deleteFrom('accountLinks')
        .where('userId', '=', change.userId)
        .where('purpose', 'in', ['password-reset', 'email-change'])
        .where('usedAt', 'is', null)
        .execute()
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new UserRuleError(EMAIL_CHANGE_MESSAGES.taken)
    throw error
  }
  const actor = { id: change.userId, email: change.newEmail, name: change.name }
  await recordAuditEvent({
    by: { actor, clientAddress },
    action: 'account.email-changed',
    target: { type: 'user', id: change.userId, label: `${change.name} <${change.newEmail}>` },
    detail: { from: change.oldEmail },
  })
  sendInBackground('an e-mail change notice', async () => {
    const { organisationName } = await getSiteSettings()
    await emailPerson(
      { name: change.name, address: change.oldEmail },
      `Your e-mail address for ${organisationName} has changed`,
      [
        `Hello ${change.name},`,
        '',
        `Your account on the ${organisationName} website now uses another e-mail address, ${change.newEmail}; this one no longer signs in.`,
        '',
        'If you did not make this change, ask an administrator of the website at once.',
      ],
    )
  })
  return change
}
