import { describe, expect, it } from 'vitest'
import { get, signIn } from '../setup/http-session'
import { startServerForFile } from '../setup/server-for-file'
import { execOnServerDatabase } from '../setup/server-database'

const server = await startServerForFile()

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString()

describe('session expiry', () => {
  it('ends a session left idle for more than 12 hours', async () => {
    const cookie = await signIn(server)
    await execOnServerDatabase(server, `update sessions set last_seen_at = '${hoursAgo(11)}'`)
    expect((await get(server, '/admin', cookie)).status).toBe(200)
    await execOnServerDatabase(server, `update sessions set last_seen_at = '${hoursAgo(13)}'`)
    const response = await get(server, '/admin', cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toMatch(/^\/login\?/)
  })

  it('ends a session at its absolute lifetime, however active', async () => {
    const cookie = await signIn(server)
    await execOnServerDatabase(server, `update sessions set expires_at = '${hoursAgo(0.01)}'`)
    expect((await get(server, '/admin', cookie)).status).toBe(302)
  })
})
