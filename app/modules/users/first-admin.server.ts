import { env } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { generatePassword } from '~/platform/password.server'
import { countUsers } from './users.queries.server'
import { createUser, UserRuleError } from './users.service.server'

export const DEFAULT_ADMIN_EMAIL = 'admin@example.org'

/**
 * On a database without users, creates the first admin: from ADMIN_EMAIL / ADMIN_PASSWORD when
 * set, otherwise with a random password that is printed once and never stored in clear.
 */
export async function ensureFirstAdmin(): Promise<void> {
  if ((await countUsers()) > 0) return
  const email = env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL
  const password = env.ADMIN_PASSWORD ?? generatePassword()
  try {
    await createUser({ email, password, name: 'Administrator', role: 'admin' })
  } catch (error) {
    // Another process starting at the same moment created it first.
    if (error instanceof UserRuleError) return
    throw error
  }
  if (env.ADMIN_PASSWORD) {
    logger.info({ email }, 'created the first administrator from ADMIN_EMAIL / ADMIN_PASSWORD')
    return
  }
  console.log(
    [
      '',
      '==================================================================',
      '  First start: an administrator account was created.',
      `    E-mail:   ${email}`,
      `    Password: ${password}`,
      '  Sign in at /login and change the password under "My account".',
      '  This password is shown only this once.',
      '==================================================================',
      '',
    ].join('\n'),
  )
}
