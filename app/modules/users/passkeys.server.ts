import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Kysely } from 'kysely'
import { db, nowIso } from '~/platform/db.server'
import type { Database } from '~/platform/db-schema'
import { clientRateLimitKey } from '~/platform/client-address.server'
import { createRateLimiter, type RateLimitVerdict } from '~/platform/rate-limit.server'
import type { SessionUser } from '~/platform/session.server'

/**
 * Passkeys (WebAuthn, with @simplewebauthn/server). A passkey proves both that the person holds the
 * device and that they unlocked it (user verification is required), so signing in with one needs
 * no password and no second step. The relying party is the site's own origin (PUBLIC_URL or the
 * address the request reached, see platform/site-url.server.ts). The library is loaded when a
 * passkey is first used: loaded at start, it would be an eighth of the heap that serving pages needs.
 */

export const MAX_PASSKEYS_PER_USER = 10
const CHALLENGE_MS = 5 * 60 * 1000
// Anyone may ask for a sign-in challenge, and each is a row: a client gets a few per window.
const challengesPerClient = createRateLimiter('passkey-challenges', { attempts: 30, windowSeconds: 15 * 60 })

export interface RelyingParty {
  /** e.g. https://example.org */
  origin: string
  name: string
}

const rpIdOf = (rp: RelyingParty) => new URL(rp.origin).hostname

export class PasskeyError extends Error {}

/** Keeps a challenge for one use; a registration's is tied to its user. */
async function storeChallenge(challenge: string, userId: string | null): Promise<void> {
  await db.deleteFrom('passkeyChallenges').where('expiresAt', '<=', nowIso()).execute()
  const expiresAt = new Date(Date.now() + CHALLENGE_MS).toISOString()
  await db.insertInto('passkeyChallenges').values({ challenge, userId, expiresAt }).execute()
}

/** True once for a challenge this server handed out, still valid, to this user (or to anyone, for a sign-in). */
async function spendChallenge(challenge: string, userId: string | null): Promise<boolean> {
  const deleted = await db
    .deleteFrom('passkeyChallenges')
    .where('challenge', '=', challenge)
    .where('expiresAt', '>', nowIso())
    .where((eb) => (userId === null ? eb('userId', 'is', null) : eb('userId', '=', userId)))
    .executeTakeFirst()
  return Number(deleted.numDeletedRows) === 1
}

export interface PasskeyForList {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

export async function listPasskeys(userId: string): Promise<PasskeyForList[]> {
  return db
    .selectFrom('passkeys')
    .select(['id', 'name', 'createdAt', 'lastUsedAt'])
    .where('userId', '=', userId)
    .orderBy('createdAt')
    .execute()
}

export async function passkeyRegistrationOptions(user: SessionUser, rp: RelyingParty) {
  const existing = await db.selectFrom('passkeys').select(['id', 'transports']).where('userId', '=', user.id).execute()
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw new PasskeyError(`You can keep at most ${MAX_PASSKEYS_PER_USER} passkeys.`)
  const { generateRegistrationOptions } = await import('@simplewebauthn/server')
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rpIdOf(rp),
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  })
  await storeChallenge(options.challenge, user.id)
  return options
}

export async function addPasskey(
  user: SessionUser,
  rp: RelyingParty,
  name: string,
  response: RegistrationResponseJSON,
): Promise<void> {
  const count = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('userId', '=', user.id)
    .executeTakeFirstOrThrow()
  if (Number(count.count) >= MAX_PASSKEYS_PER_USER)
    throw new PasskeyError(`You can keep at most ${MAX_PASSKEYS_PER_USER} passkeys.`)
  const { verifyRegistrationResponse } = await import('@simplewebauthn/server')
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: (challenge) => spendChallenge(challenge, user.id),
    expectedOrigin: rp.origin,
    expectedRPID: rpIdOf(rp),
    requireUserVerification: true,
  }).catch(() => ({ verified: false as const, registrationInfo: undefined }))
  if (!verification.verified) throw new PasskeyError('The passkey could not be added. Please try again.')
  const { credential } = verification.registrationInfo
  await db
    .insertInto('passkeys')
    .values({
      id: credential.id,
      userId: user.id,
      name,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      createdAt: nowIso(),
      lastUsedAt: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

/** Removes one of the user's passkeys; false when they have none by that id. */
export async function removePasskey(userId: string, passkeyId: string): Promise<boolean> {
  const deleted = await db.deleteFrom('passkeys').where('id', '=', passkeyId).where('userId', '=', userId).executeTakeFirst()
  return Number(deleted.numDeletedRows) === 1
}

/** Removes every passkey of a user: a password reset or a lost phone leaves none a thief may have added. Returns how many. */
export async function removeAllPasskeys(userId: string, executor: Kysely<Database> = db): Promise<number> {
  const deleted = await executor.deleteFrom('passkeys').where('userId', '=', userId).executeTakeFirst()
  return Number(deleted.numDeletedRows)
}

/** Options for signing in: no account named, the device offers the passkeys it keeps for this site. */
export async function passkeySignInOptions(rp: RelyingParty, clientIp: string) {
  const verdict: RateLimitVerdict = await challengesPerClient.hit(clientRateLimitKey(clientIp))
  if (verdict.limited) return verdict
  const { generateAuthenticationOptions } = await import('@simplewebauthn/server')
  const options = await generateAuthenticationOptions({ rpID: rpIdOf(rp), userVerification: 'required' })
  await storeChallenge(options.challenge, null)
  return { limited: false as const, options }
}

/** The account a passkey's answer proves, or null. */
export async function verifyPasskeySignIn(rp: RelyingParty, response: AuthenticationResponseJSON): Promise<SessionUser | null> {
  const row = await db
    .selectFrom('passkeys')
    .innerJoin('users', 'users.id', 'passkeys.userId')
    .select([
      'passkeys.id as passkeyId',
      'publicKey',
      'counter',
      'transports',
      'users.id',
      'users.email',
      'users.name',
      'users.role',
    ])
    .where('passkeys.id', '=', response.id)
    .executeTakeFirst()
  if (!row) return null
  const { verifyAuthenticationResponse } = await import('@simplewebauthn/server')
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: (challenge) => spendChallenge(challenge, null),
    expectedOrigin: rp.origin,
    expectedRPID: rpIdOf(rp),
    requireUserVerification: true,
    credential: {
      id: row.passkeyId,
      publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
      counter: row.counter,
      transports: JSON.parse(row.transports),
    },
  }).catch(() => null)
  if (!verification?.verified) return null
  await db
    .updateTable('passkeys')
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: nowIso() })
    .where('id', '=', row.passkeyId)
    .execute()
  return { id: row.id, email: row.email, name: row.name, role: row.role }
}
