/**
 * Account administration from the command line:
 *   npm run admin -- create --email you@example.org [--name "Your Name"] [--role admin|editor|marketplace]
 *   npm run admin -- reset-password --email you@example.org
 *   npm run admin -- turn-off-two-step --email you@example.org   (a lost phone and lost recovery codes)
 *   npm run admin -- list
 * Passwords are asked for without echo, or read from the first line of stdin when it is not a
 * terminal (`printf '%s\n' "$PASSWORD" | npm run admin -- create ...`); never from the command line,
 * where they would end up in the shell history and the process list.
 */
import readline from 'node:readline/promises'
import { Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { FROM_COMMAND_LINE, recordAuditEvent } from '../app/modules/audit/audit.service.server'
import { removeEverySecondFactor } from '../app/modules/users/two-step.server'
import { listUsersForAdmin } from '../app/modules/users/users.queries.server'
import { NewUserSchema, PasswordSchema, ROLE_LABELS } from '../app/modules/users/users.schema'
import { ROLES, type Role } from '../app/platform/access'
import { createUser, findUserIdByEmail, resetUserPassword, UserRuleError } from '../app/modules/users/users.service.server'
import { db } from '../app/platform/db.server'
import { migrateToLatest } from '../db/migrate.server'

const USAGE = `Usage:
  npm run admin -- create --email <e-mail> [--name <name>] [--role ${ROLES.join('|')}]
  npm run admin -- reset-password --email <e-mail>
  npm run admin -- turn-off-two-step --email <e-mail>
  npm run admin -- list
The password is asked for (or read from stdin); it is never accepted as an argument.`

class UsageError extends Error {}

async function askHidden(question: string): Promise<string> {
  let muted = false
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) process.stdout.write(chunk, encoding)
      done()
    },
  })
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true })
  try {
    process.stdout.write(question)
    muted = true
    return await rl.question('')
  } finally {
    muted = false
    process.stdout.write('\n')
    rl.close()
  }
}

async function readFirstLineOfStdin(): Promise<string> {
  let text = ''
  for await (const chunk of process.stdin) text += chunk
  return text.split(/\r?\n/)[0]
}

async function readNewPassword(): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLineOfStdin()
  const password = await askHidden('New password: ')
  if ((await askHidden('Repeat the password: ')) !== password) throw new UsageError('The passwords do not match.')
  return password
}

function firstIssue(error: { issues: { message: string }[] }): string {
  return error.issues.map((i) => i.message).join('; ')
}

async function run(argv: string[]): Promise<void> {
  if (argv.some((a) => a === '--password' || a.startsWith('--password='))) {
    throw new UsageError('Passwords are not accepted on the command line. Type it at the prompt or pipe it on stdin.')
  }
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
  })
  const command = positionals[0]
  if (!command || positionals.length > 1) throw new UsageError(USAGE)

  await migrateToLatest()
  switch (command) {
    case 'list': {
      const users = await listUsersForAdmin()
      if (users.length === 0) console.log('No users yet.')
      for (const u of users) console.log(`${u.email}\t${u.name}\t${u.role}\t${u.createdAt}`)
      return
    }
    case 'create': {
      const role = (values.role ?? 'admin') as Role
      const password = await readNewPassword()
      const parsed = NewUserSchema.safeParse({
        email: values.email,
        name: values.name ?? ROLE_LABELS[role] ?? 'Administrator',
        role,
        password,
      })
      if (!parsed.success) throw new UsageError(firstIssue(parsed.error))
      const user = await createUser(parsed.data)
      await recordAuditEvent({
        by: FROM_COMMAND_LINE,
        action: 'user.created',
        target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
        detail: { role: user.role },
      })
      console.log(`Created ${user.role} ${user.email}.`)
      return
    }
    case 'reset-password': {
      if (!values.email) throw new UsageError(USAGE)
      const userId = await findUserIdByEmail(values.email)
      if (!userId) throw new UsageError(`No user has the e-mail ${values.email}.`)
      const parsed = PasswordSchema.safeParse(await readNewPassword())
      if (!parsed.success) throw new UsageError(firstIssue(parsed.error))
      await resetUserPassword(userId, parsed.data)
      await recordAuditEvent({
        by: FROM_COMMAND_LINE,
        action: 'user.password-reset',
        target: { type: 'user', id: userId, label: values.email },
      })
      console.log(`Password reset for ${values.email}; their sessions have been ended.`)
      return
    }
    case 'turn-off-two-step': {
      if (!values.email) throw new UsageError(USAGE)
      const userId = await findUserIdByEmail(values.email)
      if (!userId) throw new UsageError(`No user has the e-mail ${values.email}.`)
      const passkeys = await removeEverySecondFactor(userId)
      await recordAuditEvent({
        by: FROM_COMMAND_LINE,
        action: 'account.two-step-disabled',
        target: { type: 'user', id: userId, label: values.email },
      })
      console.log(
        `Two-step sign-in turned off for ${values.email}: authenticator app, recovery codes and ${passkeys} passkey(s) removed, every session ended.`,
      )
      return
    }
    default:
      throw new UsageError(USAGE)
  }
}

try {
  await run(process.argv.slice(2))
  process.exitCode = 0
} catch (error) {
  if (error instanceof UsageError || error instanceof UserRuleError) console.error(error.message)
  else if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    console.error(`${error.message}\n${USAGE}`)
  else console.error(error)
  process.exitCode = 1
} finally {
  await db.destroy()
}
