import crypto from 'node:crypto'
import { clientRateLimitKey, createRateLimiter, minutesToWait } from '~/platform/rate-limit.server'
import { createSession, deleteExpiredSessions, type NewSession, type SessionUser } from '~/platform/session.server'
import { recordAuditEvent } from '~/modules/audit/audit.service.server'
import { authenticate } from './users.service.server'

// Guessing is limited per client address, and more tightly per address and e-mail. Nothing is
// limited per e-mail alone: otherwise anyone could lock the real admin out from elsewhere.
const WINDOW_SECONDS = 15 * 60
// A client over its limit is refused from memory for the rest of the window (see routes/auth/refused-sign-in-page.server.tsx).
const perClient = createRateLimiter('sign-in-client', { attempts: 10, windowSeconds: WINDOW_SECONDS, refuseFromMemory: true })
const perClientAndEmail = createRateLimiter('sign-in-client-email', { attempts: 5, windowSeconds: WINDOW_SECONDS })

export type SignInResult =
  | { ok: true; user: SessionUser; session: NewSession }
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
  const session = await createSession(user.id, undefined, { userAgent: input.userAgent ?? null, clientAddress: input.clientIp })
  await recordAuditEvent({ by: { actor: user, clientAddress: input.clientIp }, action: 'sign-in' })
  return { ok: true, user, session }
}
