import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import {
  CamelCasePlugin,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type Dialect,
  type Driver,
} from 'kysely'
import type pg from 'pg'
import type { Database } from '~/platform/db-schema'
import { env } from './env.server'
import { logger } from './logger.server'
import { LockWaitingSqliteDriver } from './sqlite-driver.server'
import { WorkerReadDriver } from './sqlite-reader.server'

/** Opens the SQLite file as every connection of the app does: WAL, foreign keys, secure delete, no blocking wait for locks. */
export function openSqliteFile(file: string): SQLite.Database {
  const database = new SQLite(file)
  // Start-up may wait for a lock with the process stopped: nothing is served yet.
  database.pragma('busy_timeout = 10000')
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma('foreign_keys = ON')
  // "Deleted for good" is true on disk: a removed row's bytes are overwritten, not left in a free page.
  database.pragma('secure_delete = ON')
  // From now on a locked database answers SQLITE_BUSY at once, and the caller waits without
  // blocking the event loop (retryWhileBusy): see docs/decisions/010-sqlite-locks.md.
  database.pragma('busy_timeout = 0')
  return database
}

function sqliteDialect(driver: Driver): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  }
}

/** The pool of PostgreSQL connections; `pg` is loaded only for a site on PostgreSQL. */
async function postgresPool(url: string): Promise<pg.Pool> {
  const { default: pg } = await import('pg')
  // COUNT(*) and BIGINT come back as strings by default; our counts fit in a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v))
  // A database host that stops answering must fail requests, not hold them for minutes.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 })
  // A connection that drops (database restart, network cut, terminated backend) emits 'error' on
  // its client, idle or checked out between two queries; without a listener Node treats it as
  // fatal and the site goes down. The pool discards such a client once it is released.
  pool.on('connect', (client) =>
    client.on('error', (error) => logger.warn({ err: error.message }, 'a database connection was lost')),
  )
  // The pool passes an idle client's error on as its own, already logged above.
  pool.on('error', () => {})
  return pool
}

function postgresDialect(url: string): Dialect {
  return new PostgresDialect({ pool: () => postgresPool(url) })
}

export const dialectName: 'sqlite' | 'postgres' = env.DATABASE_URL ? 'postgres' : 'sqlite'

const sqliteFile = path.join(env.dataDir, 'site.db')

function openSqliteDriver(): LockWaitingSqliteDriver {
  fs.mkdirSync(path.dirname(sqliteFile), { recursive: true })
  return new LockWaitingSqliteDriver(openSqliteFile(sqliteFile))
}

const sqliteDriver = env.DATABASE_URL ? undefined : openSqliteDriver()

export const db = new Kysely<Database>({
  dialect: sqliteDriver ? sqliteDialect(sqliteDriver) : postgresDialect(env.DATABASE_URL!),
  plugins: [new CamelCasePlugin()],
})

export type Db = typeof db

/**
 * For reads whose length a visitor chooses (the search), outside transactions: on SQLite a
 * read-only connection in a worker thread (./sqlite-reader.server.ts), so that they hold up no other
 * request; on PostgreSQL, whose queries never hold the process, the same pool as `db`.
 */
export const longReadsDb: Db = sqliteDriver
  ? new Kysely<Database>({ dialect: sqliteDialect(new WorkerReadDriver(sqliteFile)), plugins: [new CamelCasePlugin()] })
  : db

/**
 * Locks the selected rows until the transaction ends (`for update`) on PostgreSQL, where parallel
 * transactions otherwise read the same row and then overwrite each other's change. SQLite has no
 * row locks and needs none: its transactions begin IMMEDIATE and run one at a time.
 */
export function lockForUpdate<Query extends { forUpdate(): Query }>(query: Query): Query {
  return dialectName === 'postgres' ? query.forUpdate() : query
}

export type DatabaseHealth = 'ok' | 'unreachable' | 'not-writable'

/**
 * Whether the database would take a write now, answered within about `timeoutMs`. A database
 * that stops answering leaves a query waiting for minutes, and one that answers reads may still
 * refuse every write (a read-only file or server, a lock another process keeps): a monitor must
 * hear "down" in both cases.
 */
export async function checkDatabaseHealth(timeoutMs = 2_000): Promise<DatabaseHealth> {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<'unreachable'>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), timeoutMs)
  })
  const answered = sql`select 1`.execute(db).then(
    () =>
      checkWritable(timeoutMs / 2).then(
        (): DatabaseHealth => 'ok',
        (): DatabaseHealth => 'not-writable',
      ),
    (): DatabaseHealth => 'unreachable',
  )
  try {
    return await Promise.race([answered, timedOut])
  } finally {
    clearTimeout(timer)
  }
}

/** Throws unless a write would succeed: SQLite takes the write lock (waiting up to `waitMs`); PostgreSQL says whether it accepts writes. */
async function checkWritable(waitMs: number): Promise<void> {
  if (sqliteDriver) return sqliteDriver.checkWritable(waitMs)
  const { rows } = await sql<{ readOnly: string }>`select current_setting('transaction_read_only') as read_only`.execute(db)
  if (rows[0]?.readOnly !== 'off') throw new Error('The database accepts no writes')
}

export function nowIso(): string {
  return new Date().toISOString()
}
