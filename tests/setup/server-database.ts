import path from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import type { TestServer } from './server'

/** Runs one SQL statement (no parameters) on a test server's own database, e.g. to age its sessions. */
export async function execOnServerDatabase(server: TestServer, statement: string): Promise<void> {
  const { DATA_DIR, DATABASE_URL } = server.database.env
  if (DATABASE_URL) {
    const client = new pg.Client({ connectionString: DATABASE_URL })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
    return
  }
  const database = new SQLite(path.join(DATA_DIR, 'site.db'))
  try {
    database.pragma('busy_timeout = 5000')
    database.exec(statement)
  } finally {
    database.close()
  }
}

/** Runs one query (no parameters) on a test server's own database and returns its rows. */
export async function queryServerDatabase<Row = Record<string, unknown>>(server: TestServer, query: string): Promise<Row[]> {
  const { DATA_DIR, DATABASE_URL } = server.database.env
  if (DATABASE_URL) {
    const client = new pg.Client({ connectionString: DATABASE_URL })
    await client.connect()
    try {
      return (await client.query(query)).rows as Row[]
    } finally {
      await client.end()
    }
  }
  const database = new SQLite(path.join(DATA_DIR, 'site.db'))
  try {
    database.pragma('busy_timeout = 5000')
    return database.prepare(query).all() as Row[]
  } finally {
    database.close()
  }
}
