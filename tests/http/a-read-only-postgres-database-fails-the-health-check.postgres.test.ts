import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../setup/test-database'

// A PostgreSQL standby, or a role made read-only, takes reads but no writes: pages keep being
// served and /healthz tells a monitor that a write would fail (503). See docs/decisions/010-sqlite-locks.md.

describe('a PostgreSQL database that accepts no writes', () => {
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
    // A user limited to its schema cannot install extensions: the search's is installed once by an administrator (README).
    await admin.query('create schema if not exists text_search')
    await admin.query('create extension if not exists unaccent schema text_search')
    await admin.query(`grant usage on schema text_search to ${role}`)
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
    await admin.query(`revoke usage on schema text_search from ${role}`)
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
