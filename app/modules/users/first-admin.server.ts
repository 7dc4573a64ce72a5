import { env } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { generatePassword } from '~/platform/password.server'
import { countUsers } from './users.queries.server'
import { createUser, UserRuleError } from './users.service.server'

/**
 * On a database without users, creates the first admin from ADMIN_EMAIL, with ADMIN_PASSWORD or
 * else a random password that is printed once and never stored in clear. Without ADMIN_EMAIL the
 * owner sets the site up in the browser instead (modules/setup).
 */
export async function ensureFirstAdmin(): Promise<void> {
  const email = env.ADMIN_EMAIL
  if (!email || (await countUsers()) > 0) return
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
