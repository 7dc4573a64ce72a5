import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../setup/test-database'

// Another process may hold SQLite's one write lock (a second server, the admin command line, a
// backup), and a database may take reads but no writes (a read-only file, a PostgreSQL standby).
// The site keeps serving pages at once, a message posted while the lock is held is stored once it
// clears, and /healthz tells a monitor whether a write would succeed (200) or not (503). The
// health check waits up to about a second for the lock: a lock held longer answers 503.
// See docs/decisions/010-sqlite-locks.md.

const onSqlite = process.env.TEST_DATABASE !== 'postgres'

/** Milliseconds a request takes, and its response. */
async function timed(request: Promise<Response>): Promise<{ ms: number; response: Response }> {
  const started = Date.now()
  const response = await request
  await response.clone().arrayBuffer()
  return { ms: Date.now() - started, response }
}

describe.runIf(onSqlite)('while another process holds the SQLite write lock', () => {
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

describe.runIf(onSqlite)('a read-only SQLite file', () => {
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

describe.runIf(!onSqlite)('a PostgreSQL database that accepts no writes', () => {
  let server: TestServer
  let database: TestDatabase
  let admin: pg.Client
  const role = `t_ro_${process.pid}`

  async function healthOf() {
    const response = await get(server, '/healthz')
    return { status: response.status, body: await response.json() }
  }

  /** Sets the server's database role read-only or not; its open connections end, so new ones follow. */
  async function setReadOnly(readOnly: boolean) {
    await admin.query(`alter role ${role} set default_transaction_read_only = ${readOnly ? 'on' : 'off'}`)
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [role])
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
    await admin.connect()
    await admin.query(`create role ${role} login`)
    database = await createTestDatabase('postgres')
    const url = new URL(database.env.DATABASE_URL!)
    const schema = url.searchParams.get('options')!.replace(/.*search_path=/, '')
    await admin.query(`grant all on schema ${schema} to ${role}`)
    url.username = role
    server = await startTestServer({ DATABASE_URL: url.toString() }, { sharedDatabase: database })
  })

  afterAll(async () => {
    await server?.stop()
    await database?.drop()
    await admin.query(`drop role if exists ${role}`)
    await admin.end()
  })

  it('answers 503 on /healthz while the database is read-only, and 200 again once it takes writes', async () => {
    expect((await get(server, '/healthz')).status).toBe(200)
    await setReadOnly(true)
    // A pooled connection may learn only on its next query that it was ended: the check after that is the one that counts.
    await expect.poll(healthOf).toEqual({ status: 503, body: { status: 'unavailable', database: 'not-writable' } })
    expect((await get(server, '/')).status).toBe(200)
    await setReadOnly(false)
    await expect.poll(healthOf).toEqual({ status: 200, body: { status: 'ok', database: 'ok' } })
  })
})
