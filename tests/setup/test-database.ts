import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** A throwaway database for one test file or server: a temp dir (SQLite) or a fresh schema (PostgreSQL). */
export interface TestDatabase {
  env: { DATA_DIR: string; DATABASE_URL?: string }
  drop(): Promise<void>
}

export async function createTestDatabase(kind: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-test-'))
  if (kind === 'sqlite') {
    return { env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) }
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}). ` +
        'Install and start it: apt-get install -y postgresql && pg_ctlcluster 15 main start',
    )
  }
  await client.query(`create schema ${schema}`)
  await client.end()
  const url = new URL(POSTGRES_ADMIN_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
      await c.connect()
      await c.query(`drop schema if exists ${schema} cascade`)
      await c.end()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
