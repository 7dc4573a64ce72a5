import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { POSTGRES_ADMIN_URL } from '../../tests/setup/test-database'
import { db } from './db.server'

// PostgreSQL ends a connection on a restart, a failover or pg_terminate_backend. A connection the
// site holds between two queries (inside a transaction) learns of it while no query runs.
let admin: pg.Client

beforeAll(async () => {
  admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await admin.connect()
})

afterAll(async () => {
  await admin.end()
})

it('fails only the transaction whose connection was cut, and the next query gets a new one', async () => {
  const cutTransaction = db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
    await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid])
    await new Promise((resolve) => setTimeout(resolve, 300))
    await sql`select 1`.execute(trx)
  })
  await expect(cutTransaction).rejects.toThrow()
  const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db)
  expect(rows).toEqual([{ one: 1 }])
})
