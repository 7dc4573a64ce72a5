import crypto from 'node:crypto'
import { clientRateLimitKey } from '~/platform/client-address.server'
import { createRateLimiter, minutesToWait } from '~/platform/rate-limit.server'
import {
  createSession,
  deleteExpiredSessions,
  deviceOf,
  type NewSession,
  type SessionDevice,
  type SessionUser,
} from '~/platform/session.server'
import { recordAuditEvent } from '~/modules/audit/audit.service.server'
import { safeRedirectPath } from '~/platform/auth.server'
import { homeFor } from '~/platform/access'
import { authenticate } from './users.service.server'
import { verifyPasskeySignIn, type RelyingParty } from './passkeys.server'
import { checkSecondStep, clearCodeLimits, confirmAuthenticator, hitCodeLimits } from './two-step.server'
import {
  finishPendingSignIn,
  startPendingSignIn,
  stepAfterPassword,
  type NewPendingSignIn,
  type PendingSignIn,
} from './pending-sign-ins.server'

// Guessing is limited per client address, and more tightly per address and e-mail. Nothing is
// limited per e-mail alone: otherwise anyone could lock the real admin out from elsewhere.
const WINDOW_SECONDS = 15 * 60
// A client over its limit is refused from memory for the rest of the window (see routes/auth/refused-sign-in-page.server.tsx).
const perClient = createRateLimiter('sign-in-client', { attempts: 10, windowSeconds: WINDOW_SECONDS, refuseFromMemory: true })
const perClientAndEmail = createRateLimiter('sign-in-client-email', { attempts: 5, windowSeconds: WINDOW_SECONDS })

export type SignInResult =
  | { ok: true; user: SessionUser; session: NewSession }
  | { ok: true; user: SessionUser; pending: NewPendingSignIn }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number }

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many sign-in attempts. Please try again in ${minutesToWait(retryAfterSeconds)}.`
}

/**
 * Seconds this client must still wait, if this process already knows it is over its limit
 * (no database read); 0 otherwise, and then only `signInWithPassword` can tell.
 */
export function knownSignInRefusalSeconds(clientIp: string): number {
  return perClient.knownRefusalSeconds(clientRateLimitKey(clientIp))
}

/**
 * Checks a password under the sign-in limits and starts a new session when it is right. Both
 * outcomes go in the audit log (a failure with the e-mail typed, never the password); refused
 * attempts do not, so the throttle also bounds how many failures one address can add.
 */
export async function signInWithPassword(input: {
  email: string
  password: string
  clientIp: string
  /** The browser's User-Agent, kept with the session for the account's list of devices. */
  userAgent?: string | null
  redirectTo?: string
}): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase()
  const clientKey = clientRateLimitKey(input.clientIp)
  // Hashed so that the key stays short and no e-mail address sits in the counter table.
  const pairKey = crypto.createHash('sha256').update(`${clientKey}\n${email}`).digest('hex')
  // A client this process already knows to be over its limit is refused without a write.
  const knownRefusal = perClient.knownRefusalSeconds(clientKey)
  if (knownRefusal > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: knownRefusal }
  // Counted before the password is checked, so parallel guesses cannot slip past the limit.
  const verdicts = await Promise.all([perClient.hit(clientKey), perClientAndEmail.hit(pairKey)])
  const limited = verdicts.filter((v) => v.limited)
  if (limited.length > 0) {
    return { ok: false, reason: 'throttled', retryAfterSeconds: Math.max(...limited.map((v) => v.retryAfterSeconds)) }
  }
  const user = await authenticate(email, input.password)
  if (!user) {
    await recordAuditEvent({
      by: { actor: { id: null, email, name: '' }, clientAddress: input.clientIp },
      action: 'sign-in-failed',
    })
    return { ok: false, reason: 'invalid' }
  }
  // Sign-ins are rare, so this is a cheap moment to sweep sessions that can no longer be used.
  await Promise.all([perClient.refund(clientKey), perClientAndEmail.reset(pairKey), deleteExpiredSessions()])
  // An account with two-step sign-in (or whose role requires it) gets no session yet.
  const step = await stepAfterPassword(user)
  if (step !== 'session') {
    return { ok: true, user, pending: await startPendingSignIn(user.id, step, safeRedirectPath(input.redirectTo, '')) }
  }
  const session = await createSession(user.id, { userAgent: input.userAgent ?? null, clientAddress: input.clientIp })
  await recordAuditEvent({ by: { actor: user, clientAddress: input.clientIp }, action: 'sign-in' })
  return { ok: true, user, session }
}

export type SecondStepResult =
  | { ok: true; session: NewSession; redirectTo: string }
  | { ok: false; reason: 'invalid' | 'expired' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number }

/**
 * Completes a pending sign-in with a code: from the authenticator app or a recovery code
 * (purpose 'second-step'), or the first code of the app the role requires (purpose 'setup', which
 * also returns the new recovery codes). Codes are counted before they are checked, like passwords.
 */
export async function completeSignIn(
  request: Request,
  pending: PendingSignIn,
  input: { code: string; clientIp: string },
): Promise<SecondStepResult & { recoveryCodes?: string[] }> {
  const { user } = pending
  const clientKey = clientRateLimitKey(input.clientIp)
  const verdict = await hitCodeLimits(user.id, clientKey)
  if (verdict.limited) return { ok: false, reason: 'throttled', retryAfterSeconds: verdict.retryAfterSeconds }
  const by = { actor: user, clientAddress: input.clientIp }
  let passed: string | null
  let recoveryCodes: string[] | undefined
  if (pending.purpose === 'setup') {
    recoveryCodes = (await confirmAuthenticator(user.id, input.code)) ?? undefined
    passed = recoveryCodes ? 'authenticator app set up' : null
  } else {
    passed = await checkSecondStep(user.id, input.code)
  }
  if (!passed) {
    await recordAuditEvent({ by, action: 'sign-in.second-step-failed' })
    return { ok: false, reason: 'invalid' }
  }
  await clearCodeLimits(user.id, clientKey)
  // Two requests with the same pending sign-in: only the one that ends it gets a session.
  if (!(await finishPendingSignIn(request))) return { ok: false, reason: 'expired' }
  const session = await createSession(user.id, deviceOf(request, input.clientIp))
  if (recoveryCodes) await recordAuditEvent({ by, action: 'account.two-step-enabled' })
  await recordAuditEvent({ by, action: 'sign-in', detail: { secondStep: passed } })
  return { ok: true, session, redirectTo: safeRedirectPath(pending.redirectTo, homeFor(user)), recoveryCodes }
}

/**
 * Signs in with a passkey's answer (it proves the device and its unlocking, so no second step).
 * Counted against the same per-client limit as passwords; a refused answer is audited.
 */
export async function signInWithPasskey(input: {
  rp: RelyingParty
  response: string
  clientIp: string
  device: SessionDevice
}): Promise<SignInResult> {
  const clientKey = clientRateLimitKey(input.clientIp)
  const known = perClient.knownRefusalSeconds(clientKey)
  if (known > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: known }
  const verdict = await perClient.hit(clientKey)
  if (verdict.limited) return { ok: false, reason: 'throttled', retryAfterSeconds: verdict.retryAfterSeconds }
  let response
  try {
    response = JSON.parse(input.response)
  } catch {
    response = null
  }
  const user =
    response && typeof response === 'object' && typeof response.id === 'string'
      ? await verifyPasskeySignIn(input.rp, response)
      : null
  if (!user) {
    await recordAuditEvent({
      by: { actor: { id: null, email: '', name: '' }, clientAddress: input.clientIp },
      action: 'sign-in-failed',
      detail: { method: 'passkey' },
    })
    return { ok: false, reason: 'invalid' }
  }
  await Promise.all([perClient.refund(clientKey), deleteExpiredSessions()])
  const session = await createSession(user.id, input.device)
  await recordAuditEvent({ by: { actor: user, clientAddress: input.clientIp }, action: 'sign-in', detail: { method: 'passkey' } })
  return { ok: true, user, session }
}
