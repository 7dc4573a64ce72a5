import fs from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type DatabaseConnection,
  type Dialect,
} from 'kysely'
import pg from 'pg'
import type { Database } from '~/platform/db-schema'
import { env } from './env.server'
import { logger } from './logger.server'

/** SQLite transactions start IMMEDIATE so that a read-then-write never fails with SQLITE_BUSY. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

function sqliteDialect(file: string): Dialect {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const database = new SQLite(file)
  database.pragma('journal_mode = WAL')
  database.pragma('synchronous = NORMAL')
  database.pragma('foreign_keys = ON')
  database.pragma('busy_timeout = 10000')
  const config = { database }
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ImmediateSqliteDriver(config),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  }
}

function postgresDialect(url: string): Dialect {
  // COUNT(*) and BIGINT come back as strings by default; our counts fit in a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v))
  // A database host that stops answering must fail requests, not hold them for minutes.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 })
  // An idle connection that drops (database restart, network cut) is emitted here; the pool has
  // already discarded it. Without a listener Node treats the event as fatal and the site goes down.
  pool.on('error', (error) => logger.warn({ err: error.message }, 'an idle database connection was lost'))
  return new PostgresDialect({ pool })
}

export const dialectName: 'sqlite' | 'postgres' = env.DATABASE_URL ? 'postgres' : 'sqlite'

export const db = new Kysely<Database>({
  dialect: env.DATABASE_URL
    ? postgresDialect(env.DATABASE_URL)
    : sqliteDialect(path.join(env.dataDir, 'site.db')),
  plugins: [new CamelCasePlugin()],
})

export type Db = typeof db

/**
 * Locks the selected rows until the transaction ends (`for update`) on PostgreSQL, where parallel
 * transactions otherwise read the same row and then overwrite each other's change. SQLite has no
 * row locks and needs none: its transactions begin IMMEDIATE and run one at a time.
 */
export function lockForUpdate<Query extends { forUpdate(): Query }>(query: Query): Query {
  return dialectName === 'postgres' ? query.forUpdate() : query
}

/**
 * True when the database answers a trivial query within `timeoutMs`. A database that stops
 * answering leaves the query waiting for minutes; a monitor must hear "down" instead.
 */
export async function pingDatabase(timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs)
  })
  const answered = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  )
  try {
    return await Promise.race([answered, timedOut])
  } finally {
    clearTimeout(timer)
  }
}

export function nowIso(): string {
  return new Date().toISOString()
}
