import { describe, expect, it } from 'vitest'
import { generatePassword, hashPassword, verifyAgainstDummy, verifyPassword } from './password.server'

describe('password hashing', () => {
  it('stores an argon2id hash with a fresh salt, never the password', async () => {
    const first = await hashPassword('correct horse battery')
    const second = await hashPassword('correct horse battery')
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(first).not.toContain('correct horse battery')
    expect(first).not.toBe(second)
  })

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery')
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true)
    expect(await verifyPassword(stored, 'correct horse battery ')).toBe(false)
  })

  it('treats a damaged stored hash as a wrong password', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false)
  })

  it('spends real hashing work on unknown accounts too', async () => {
    await verifyAgainstDummy('warm-up') // the dummy hash is made once
    const started = performance.now()
    expect(await verifyAgainstDummy('guess')).toBe(false)
    // A 19 MiB argon2id pass takes milliseconds (4.5 on this project's machines at best); skipping it, well under one.
    expect(performance.now() - started).toBeGreaterThan(2)
  })

  it('generates readable random passwords', () => {
    const password = generatePassword()
    expect(password).toHaveLength(20)
    expect(password).toMatch(/^[a-zA-Z2-9]+$/)
    expect(generatePassword()).not.toBe(password)
  })
})
