import crypto from 'node:crypto'
import type { Role } from '~/platform/access'
import { db, nowIso } from '~/platform/db.server'
import { createRateLimiter, type RateLimitVerdict } from '~/platform/rate-limit.server'
import { hashOfSecret } from '~/platform/secret-tokens.server'
import { revokeUserSessions } from '~/platform/session.server'
import { removeAllPasskeys } from './passkeys.server'
import { TwoStepRolesSchema } from './two-step.schema'

/**
 * Two-step sign-in with an authenticator app (TOTP, RFC 6238) and ten single-use recovery codes.
 * A right password for an account that has it opens only a pending sign-in (a table row whose
 * random id sits in a cookie limited to /login); only a right code turns that into a session.
 * otplib and qrcode are loaded when first used, not in every process that only serves pages.
 */

const RECOVERY_CODE_COUNT = 10
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789' // no 0/o, 1/l/i to misread
// One time step (30 s) either side of now, for clocks that drift and codes typed slowly.
const TIME_STEPS_TOLERATED = 30
const TWO_STEP_ROLES_KEY = 'two-step-roles'

// Wrong codes are limited like wrong passwords: per client address, and more tightly per account
// (which only someone who knew the password can reach).
const WINDOW_SECONDS = 15 * 60
const perClient = createRateLimiter('two-step-client', { attempts: 10, windowSeconds: WINDOW_SECONDS })
const perUser = createRateLimiter('two-step-user', { attempts: 5, windowSeconds: WINDOW_SECONDS })

/** Counts one code attempt; limited when the client or the account is over its budget. */
export async function hitCodeLimits(userId: string, clientKey: string): Promise<RateLimitVerdict> {
  const verdicts = await Promise.all([perClient.hit(clientKey), perUser.hit(userId)])
  const limited = verdicts.flatMap((v) => (v.limited ? [v.retryAfterSeconds] : []))
  return limited.length > 0 ? { limited: true, retryAfterSeconds: Math.max(...limited) } : { limited: false }
}

/** After a right code: the account's count starts again, and the client's attempt is taken back. */
export async function clearCodeLimits(userId: string, clientKey: string): Promise<void> {
  await Promise.all([perUser.reset(userId), perClient.refund(clientKey)])
}

// ---- Which roles must use it (a site setting)

export async function getRolesRequiringTwoStep(): Promise<Role[]> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', TWO_STEP_ROLES_KEY).executeTakeFirst()
  if (!row) return []
  const parsed = TwoStepRolesSchema.safeParse({ roles: safeJson(row.value) })
  return parsed.success ? parsed.data.roles : []
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * Saves the roles that must use two-step sign-in, and ends the sessions of their people who have
 * no authenticator app yet: a session begun with the password alone does not outlive the rule,
 * and the next sign-in leads to the app's setup. Returns the ids of the people signed out.
 */
export async function setRolesRequiringTwoStep(roles: Role[]): Promise<string[]> {
  const value = JSON.stringify([...new Set(roles)].sort())
  const updatedAt = nowIso()
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('settings')
      .values({ key: TWO_STEP_ROLES_KEY, value, updatedAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt }))
      .execute()
    if (roles.length === 0) return []
    const withoutApp = await trx
      .selectFrom('users')
      .select('id')
      .where('role', 'in', roles)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('authenticatorApps')
              .select('authenticatorApps.userId')
              .whereRef('authenticatorApps.userId', '=', 'users.id')
              .where('authenticatorApps.confirmedAt', 'is not', null),
          ),
        ),
      )
      .execute()
    const ids = withoutApp.map((user) => user.id)
    if (ids.length > 0) await trx.deleteFrom('sessions').where('userId', 'in', ids).execute()
    return ids
  })
}

// ---- The authenticator app

export interface TwoStepStatus {
  enabled: boolean
  recoveryCodesLeft: number
  /** The secret of a setup begun but not confirmed yet. */
  pendingSecret: string | null
}

export async function getTwoStepStatus(userId: string): Promise<TwoStepStatus> {
  const [app, codes] = await Promise.all([
    db.selectFrom('authenticatorApps').select(['secret', 'confirmedAt']).where('userId', '=', userId).executeTakeFirst(),
    db
      .selectFrom('recoveryCodes')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('userId', '=', userId)
      .where('usedAt', 'is', null)
      .executeTakeFirstOrThrow(),
  ])
  return {
    enabled: Boolean(app?.confirmedAt),
    recoveryCodesLeft: Number(codes.count),
    pendingSecret: app && !app.confirmedAt ? app.secret : null,
  }
}

/** Starts setting up an app: a new secret, unconfirmed until a code from the app is entered. Never replaces a confirmed one. */
export async function beginAuthenticatorSetup(userId: string): Promise<void> {
  const { generateSecret } = await import('otplib')
  const secret = generateSecret()
  await db
    .insertInto('authenticatorApps')
    .values({ userId, secret, confirmedAt: null, lastTimeStep: null, createdAt: nowIso() })
    .onConflict((oc) =>
      oc.column('userId').doUpdateSet({ secret, createdAt: nowIso() }).where('authenticatorApps.confirmedAt', 'is', null),
    )
    .execute()
}

/** The picture an app scans: an SVG drawn here, so the secret never leaves the server. */
export async function authenticatorQrSvg(input: { secret: string; issuer: string; accountName: string }): Promise<string> {
  const [{ generateURI }, { default: QRCode }] = await Promise.all([import('otplib'), import('qrcode')])
  const uri = generateURI({ issuer: input.issuer, label: input.accountName, secret: input.secret })
  return QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' })
}

/**
 * A code is right when it matches the secret within the tolerance and belongs to a later time
 * step than any code accepted before; the step is recorded in the same statement, so two
 * requests with one code cannot both pass.
 */
async function acceptCode(userId: string, secret: string, lastTimeStep: number | null, code: string): Promise<boolean> {
  const token = code.replace(/\s/g, '')
  if (!/^\d{6}$/.test(token)) return false
  const { verify } = await import('otplib')
  const result = await verify({
    secret,
    token,
    epochTolerance: TIME_STEPS_TOLERATED,
    ...(lastTimeStep === null ? {} : { afterTimeStep: lastTimeStep }),
  })
  // The TOTP strategy's answer carries the time step the code belongs to.
  if (!result.valid || !('timeStep' in result)) return false
  const updated = await db
    .updateTable('authenticatorApps')
    .set({ lastTimeStep: result.timeStep })
    .where('userId', '=', userId)
    .where((eb) => eb.or([eb('lastTimeStep', 'is', null), eb('lastTimeStep', '<', result.timeStep)]))
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1
}

/** Confirms a setup with a first code from the app; returns the new recovery codes, or null for a wrong code. */
export async function confirmAuthenticator(userId: string, code: string): Promise<string[] | null> {
  const app = await db
    .selectFrom('authenticatorApps')
    .select(['secret', 'lastTimeStep'])
    .where('userId', '=', userId)
    .where('confirmedAt', 'is', null)
    .executeTakeFirst()
  if (!app || !(await acceptCode(userId, app.secret, app.lastTimeStep, code))) return null
  await db.updateTable('authenticatorApps').set({ confirmedAt: nowIso() }).where('userId', '=', userId).execute()
  return replaceRecoveryCodes(userId)
}

/** Ten new recovery codes, shown once; only their hashes are kept, and the old ones stop working. */
export async function replaceRecoveryCodes(userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute()
    await trx
      .insertInto('recoveryCodes')
      .values(codes.map((code) => ({ codeHash: hashOfSecret(normaliseRecoveryCode(code)), userId, usedAt: null })))
      .execute()
  })
  return codes
}

function newRecoveryCode(): string {
  const chars = Array.from(crypto.randomBytes(10), (byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length])
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`
}

function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '')
}

/** Uses up a recovery code: true once for each right code. */
async function spendRecoveryCode(userId: string, code: string): Promise<boolean> {
  const normalised = normaliseRecoveryCode(code)
  if (!/^[a-z0-9]{10}$/.test(normalised)) return false
  const updated = await db
    .updateTable('recoveryCodes')
    .set({ usedAt: nowIso() })
    .where('codeHash', '=', hashOfSecret(normalised))
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1
}

/** Which second step a code passed, or null when it is neither a fresh app code nor an unused recovery code. */
export async function checkSecondStep(userId: string, code: string): Promise<'authenticator app' | 'recovery code' | null> {
  const app = await db
    .selectFrom('authenticatorApps')
    .select(['secret', 'lastTimeStep'])
    .where('userId', '=', userId)
    .where('confirmedAt', 'is not', null)
    .executeTakeFirst()
  if (!app) return null
  if (await acceptCode(userId, app.secret, app.lastTimeStep, code)) return 'authenticator app'
  if (await spendRecoveryCode(userId, code)) return 'recovery code'
  return null
}

export async function turnOffTwoStep(userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute()
    await trx.deleteFrom('authenticatorApps').where('userId', '=', userId).execute()
  })
}

/**
 * For someone who lost their phone and recovery codes (the command line): the authenticator app,
 * the recovery codes and every passkey go (those on the lost phone too), and every session ends.
 * Returns how many passkeys were removed.
 */
export async function removeEverySecondFactor(userId: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('recoveryCodes').where('userId', '=', userId).execute()
    await trx.deleteFrom('authenticatorApps').where('userId', '=', userId).execute()
    await revokeUserSessions(userId, trx)
    return removeAllPasskeys(userId, trx)
  })
}
