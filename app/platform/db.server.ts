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
  return new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) })
}

export const dialectName: 'sqlite' | 'postgres' = env.DATABASE_URL ? 'postgres' : 'sqlite'

export const db = new Kysely<Database>({
  dialect: env.DATABASE_URL
    ? postgresDialect(env.DATABASE_URL)
    : sqliteDialect(path.join(env.dataDir, 'site.db')),
  plugins: [new CamelCasePlugin()],
})

export type Db = typeof db

/** True when the database answers a trivial query. */
export async function pingDatabase(): Promise<boolean> {
  try {
    await sql`select 1`.execute(db)
    return true
  } catch {
    return false
  }
}

export function nowIso(): string {
  return new Date().toISOString()
}
