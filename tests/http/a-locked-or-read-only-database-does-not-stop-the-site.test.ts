import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'
import { createTestDatabase } from '../setup/test-database'

// Another process may hold SQLite's one write lock (a second server, the admin command line, a
// backup), and a database may take reads but no writes (a read-only file, a PostgreSQL standby).
// The site keeps serving pages at once, a message posted while the lock is held is stored once it
// clears, and /healthz tells a monitor whether a write would succeed (200) or not (503). The
// health check waits up to about a second for the lock: a lock held longer answers 503.
// See docs/decisions/010-sqlite-locks.md. PostgreSQL: a-read-only-postgres-database-fails-the-health-check.postgres.test.ts.

/** Milliseconds a request takes, and its response. */
async function timed(request: Promise<Response>): Promise<{ ms: number; response: Response }> {
  const started = Date.now()
  const response = await request
  await response.clone().arrayBuffer()
  return { ms: Date.now() - started, response }
}

describe('while another process holds the SQLite write lock', () => {
  let server: TestServer
  let holder: SQLite.Database

  beforeAll(async () => {
    server = await startTestServer()
    holder = new SQLite(path.join(server.database.env.DATA_DIR, 'site.db'))
  })

  afterAll(async () => {
    holder?.close()
    await server?.stop()
  })

  it('answers pages and health checks at once, and stores a message posted during the lock once it clears', async () => {
    expect((await get(server, '/')).status).toBe(200) // the first render warms caches up
    holder.exec('begin immediate')
    let answered = false
    const message = { name: 'Patient Visitor', email: 'patient@example.com', subject: 'general', message: 'Hello' }
    const posting = post(server, '/contact', message).then((response) => {
      answered = true
      return response
    })
    try {
      const health = await timed(get(server, '/healthz'))
      expect(health.ms).toBeLessThan(2_000)
      expect(health.response.status).toBe(503)
      expect(await health.response.json()).toEqual({ status: 'unavailable', database: 'not-writable' })

      const page = await timed(get(server, '/'))
      expect(page.ms).toBeLessThan(2_000)
      expect(page.response.status).toBe(200)
      // The message still waits for the lock.
      expect(answered).toBe(false)
    } finally {
      holder.exec('rollback')
    }

    expect((await posting).status).toBe(303)
    const stored = await queryServerDatabase<{ name: string }>(server, 'select name from contact_messages')
    expect(stored).toEqual([{ name: 'Patient Visitor' }])
    expect((await get(server, '/healthz')).status).toBe(200)
  })

  it('answers 200 when a lock clears within the health check’s wait', async () => {
    holder.exec('begin immediate')
    const health = get(server, '/healthz')
    setTimeout(() => holder.exec('rollback'), 200)
    expect((await health).status).toBe(200)
  })
})

describe('a read-only SQLite file', () => {
  it('starts the site for reading, and /healthz answers 503', { timeout: 60_000 }, async () => {
    const database = await createTestDatabase('sqlite')
    try {
      // A first start creates and fills the database.
      await (await startTestServer({}, { sharedDatabase: database })).stop()
      // Root writes to read-only files anyway: then the server runs as an ordinary user, as it
      // would in production. It owns the directory (SQLite keeps its WAL files there), not the right to write the file.
      const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined
      if (user) {
        for (const entry of ['', ...fs.readdirSync(database.env.DATA_DIR, { recursive: true, encoding: 'utf8' })]) {
          fs.chownSync(path.join(database.env.DATA_DIR, entry), user.uid, user.gid)
        }
      }
      fs.chmodSync(path.join(database.env.DATA_DIR, 'site.db'), 0o444)

      const server = await startTestServer({}, { sharedDatabase: database, user })
      try {
        const health = await get(server, '/healthz')
        expect(health.status).toBe(503)
        expect(await health.json()).toEqual({ status: 'unavailable', database: 'not-writable' })
        expect((await get(server, '/')).status).toBe(200)
      } finally {
        await server.stop()
      }
    } finally {
      await database.drop()
    }
  })
})
