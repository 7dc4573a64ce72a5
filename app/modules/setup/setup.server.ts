import crypto from 'node:crypto'
import { seedNewSite } from '../../../db/seed'
import { DEFAULT_SITE_SETTINGS } from '~/modules/settings/settings.defaults'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { findUsableLink, issueAccountLink } from '~/modules/users/account-links.server'
import { countUsers } from '~/modules/users/users.queries.server'
import { db, nowIso } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { withMediaChange } from '~/platform/media/media-change.server'
import { hashPassword } from '~/platform/password.server'
import type { SessionUser } from '~/platform/session.server'
import { SETUP_MESSAGES, type SetupInput } from './setup.schema'

/**
 * A new site is set up by its owner in the browser: while it has no account (and ADMIN_EMAIL does
 * not set one up), every start prints an address with a one-time secret, valid for an hour, and
 * only that address opens the setup page. Whoever first finds the site cannot claim it.
 */

export class SetupRefusedError extends Error {}

/** Whether this site still waits for its owner: no account yet and none from the environment. */
export function setupWaitsAtStart(users: number): boolean {
  return users === 0 && !env.ADMIN_EMAIL
}

// Once set up, a site never waits again: no request asks the database after that.
let setUp = false

/** Whether requests should meet the setup notice (one small query per request, only until set up). */
export async function isWaitingForSetup(): Promise<boolean> {
  if (setUp) return false
  setUp = !setupWaitsAtStart(await countUsers())
  return !setUp
}

/** A new setup address's path (`/setup/<token>`); the start prints it once the server listens. */
export async function openSetup(): Promise<string> {
  const link = await issueAccountLink({ purpose: 'setup', email: '' })
  return `/setup/${link.token}`
}

/** Whether a token opens the setup page now. */
export async function canSetUpWith(token: string): Promise<boolean> {
  return (await isWaitingForSetup()) && (await findUsableLink(token, 'setup')) !== null
}

/**
 * Creates the owner's account and the site's first content in one transaction, and uses up every
 * setup address. Of two setups at once (two addresses printed by two processes, or one sent twice),
 * the first to use up the addresses wins; the other is refused and changes nothing.
 */
export async function completeSetup(token: string, input: SetupInput): Promise<SessionUser> {
  const link = await findUsableLink(token, 'setup')
  if (!link) throw new SetupRefusedError(SETUP_MESSAGES.unusable)
  const user: SessionUser = { id: crypto.randomUUID(), email: input.email, name: input.name, role: 'admin' }
  const passwordHash = await hashPassword(input.newPassword)
  const base = input.start === 'demo' ? DEMO_SITE_SETTINGS : { ...DEFAULT_SITE_SETTINGS, email: input.email }
  const settings = { ...base, organisationName: input.organisationName, timeZone: input.timeZone }
  await withMediaChange((media) =>
    media.transaction(db, async (trx) => {
      const now = nowIso()
      // Every waiting address at once: a second setup waits for this row lock (PostgreSQL) or the
      // write lock (SQLite), then finds its own address used.
      const used = await trx
        .updateTable('accountLinks')
        .set({ usedAt: now })
        .where('purpose', '=', 'setup')
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .returning('id')
        .execute()
      if (!used.some((row) => row.id === link.id)) throw new SetupRefusedError(SETUP_MESSAGES.unusable)
      if ((await trx.selectFrom('users').select('id').limit(1).execute()).length > 0) {
        throw new SetupRefusedError(SETUP_MESSAGES.unusable)
      }
      await trx
        .insertInto('users')
        .values({ ...user, passwordHash, createdAt: now, updatedAt: now })
        .execute()
      // Settings left by a start that stopped halfway stay as they are.
      await seedNewSite(trx, media, { start: input.start, settings })
    }),
  )
  setUp = true
  return user
}
