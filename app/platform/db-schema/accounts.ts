import type { Role } from '../access'

/** Tables of people and how they sign in (camelCase; CamelCasePlugin maps to snake_case). */

export interface UserTable {
  id: string
  email: string
  name: string
  role: Role
  passwordHash: string
  createdAt: string
  updatedAt: string
}

export interface SessionTable {
  idHash: string
  userId: string
  createdAt: string
  lastSeenAt: string
  expiresAt: string
  /** The browser's User-Agent and the client address when the session began (for "My account"). */
  userAgent: string | null
  clientAddress: string | null
  /** When the owner last signed in or typed their password again (db/migrations/0029). */
  confirmedAt: string
}

/** A one-time link to choose a password: a reset for a user, or an invitation (db/migrations/0019). */
export interface AccountLinkTable {
  id: string
  purpose: 'password-reset' | 'invitation' | 'setup' | 'email-change'
  secretHash: string
  userId: string | null
  email: string
  role: UserTable['role'] | null
  /** SHA-256 of the password hash the reset replaces: any password change makes the link useless. */
  passwordFingerprint: string | null
  createdBy: string | null
  createdAt: string
  expiresAt: string
  usedAt: string | null
}

/** Counters of rate-limiter-flexible's database stores (expire: epoch milliseconds). */
export interface RateLimitTable {
  key: string
  points: number
  expire: number | null
}

export interface AuthenticatorAppTable {
  userId: string
  secret: string
  confirmedAt: string | null
  lastTimeStep: number | null
  createdAt: string
}

export interface RecoveryCodeTable {
  codeHash: string
  userId: string
  usedAt: string | null
}

export interface PendingSignInTable {
  idHash: string
  userId: string
  purpose: 'second-step' | 'setup'
  redirectTo: string
  expiresAt: string
}

export interface PasskeyTable {
  id: string
  userId: string
  name: string
  publicKey: string
  counter: number
  transports: string
  createdAt: string
  lastUsedAt: string | null
}

export interface PasskeyChallengeTable {
  challenge: string
  userId: string | null
  expiresAt: string
}
