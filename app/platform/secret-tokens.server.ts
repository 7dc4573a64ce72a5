import crypto from 'node:crypto'

/** A secret for a link or a cookie: 32 random bytes, 43 characters of base64url. */
export function newSecretToken(): string {
  return crypto.randomBytes(32).toString('base64url')
}

/** How a secret is stored: its SHA-256, so that a copy of the database opens nothing. */
export function hashOfSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex')
}
