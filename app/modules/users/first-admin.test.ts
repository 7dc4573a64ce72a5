import { afterEach, describe, expect, it, vi } from 'vitest'
import { ensureFirstAdmin } from './first-admin.server'
import { listUsersForAdmin } from './users.queries.server'
import { authenticate, createUser } from './users.service.server'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the first start', () => {
  it('creates an admin with a random password and prints it once', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    await ensureFirstAdmin()
    await ensureFirstAdmin()
    expect(log).toHaveBeenCalledTimes(1)
    const printed = String(log.mock.calls[0][0])
    expect(printed).toContain('admin@example.org')
    const password = printed.match(/Password: (\S+)/)![1]
    expect(password).toHaveLength(20)
    expect(await authenticate('admin@example.org', password)).toMatchObject({ role: 'admin' })
    expect(await listUsersForAdmin()).toHaveLength(1)
  })

  it('leaves a database with users alone', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    await createUser({ email: 'ana@example.org', name: 'Ana', role: 'marketplace', password: 'correct horse battery' })
    await ensureFirstAdmin()
    expect(log).not.toHaveBeenCalled()
    expect(await listUsersForAdmin()).toHaveLength(1)
  })
})
