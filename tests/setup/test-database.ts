import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** A throwaway database for one test file or server: a temp dir (SQLite) or a fresh schema or database (PostgreSQL). */
export interface TestDatabase {
  env: { DATA_DIR: string; DATABASE_URL?: string }
  drop(): Promise<void>
}

export type DatabaseKind = 'sqlite' | 'postgres'

async function runAsAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${(error as Error).message}). ` +
        'Install and start it: apt-get install -y postgresql && pg_ctlcluster 15 main start',
    )
  }
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'site-test-'))
}

const randomName = (prefix: string) => `${prefix}_${crypto.randomBytes(6).toString('hex')}`

/** An empty database in a schema of its own (PostgreSQL), or an empty data folder (SQLite). */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = tempDataDir()
  if (kind === 'sqlite') {
    return { env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) }
  }
  const schema = randomName('t')
  await runAsAdmin(`create schema ${schema}`)
  const url = new URL(POSTGRES_ADMIN_URL)
  url.searchParams.set('options', `-c search_path=${schema}`)
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      await runAsAdmin(`drop schema if exists ${schema} cascade`)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * An empty database of its own (PostgreSQL: a whole database, so that it can serve as a
 * template), or an empty data folder (SQLite).
 */
export async function createTemplateDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') return createTestDatabase(kind)
  return databaseCopy(null)
}

/** A copy of `source` (made by createTemplateDatabase, with nobody connected): its data folder and database. */
export async function copyTestDatabase(source: TestDatabase): Promise<TestDatabase> {
  if (!source.env.DATABASE_URL) {
    const dataDir = tempDataDir()
    fs.cpSync(source.env.DATA_DIR, dataDir, { recursive: true })
    return { env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) }
  }
  return databaseCopy(source)
}

async function databaseCopy(source: TestDatabase | null): Promise<TestDatabase> {
  const dataDir = tempDataDir()
  const name = randomName('site')
  if (source) {
    fs.cpSync(source.env.DATA_DIR, dataDir, { recursive: true })
    const template = new URL(source.env.DATABASE_URL!).pathname.slice(1)
    await runAsAdmin(`create database ${name} template ${template}`)
  } else {
    await runAsAdmin(`create database ${name}`)
  }
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      await runAsAdmin(`drop database if exists ${name} with (force)`)
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
