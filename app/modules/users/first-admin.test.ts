import { afterEach, describe, expect, it, vi } from 'vitest'
import { ensureFirstAdmin } from './first-admin.server'
import { listUsersForAdmin } from './users.queries.server'
import { createUser } from './users.service.server'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the first start', () => {
  it('creates no account without ADMIN_EMAIL: the owner sets the site up in the browser', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    await ensureFirstAdmin()
    expect(log).not.toHaveBeenCalled()
    expect(await listUsersForAdmin()).toHaveLength(0)
  })

  it('leaves a database with users alone', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    await createUser({ email: 'ana@example.org', name: 'Ana', role: 'marketplace', password: 'correct horse battery' })
    await ensureFirstAdmin()
    expect(log).not.toHaveBeenCalled()
    expect(await listUsersForAdmin()).toHaveLength(1)
  })
})
