import { describe, expect, it } from 'vitest'
import { nextNonce } from './nonces'

describe('nonces for the pages’ scripts', () => {
  it('are 16 bytes in base64 and never repeat, across many pools', () => {
    const nonces = Array.from({ length: 2_000 }, nextNonce)
    expect(new Set(nonces).size).toBe(nonces.length)
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16)
  })
})
