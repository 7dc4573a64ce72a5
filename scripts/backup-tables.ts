/**
 * The database of a backup as plain rows (`database/tables.json`), beside SQLite's file or
 * pg_dump's archive, so that a backup of either database kind can be restored into the other:
 * the target's tables are made by the site's own migrations, then filled with the rows.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import SQLite from 'better-sqlite3'
import { CompiledQuery, Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import { migrations } from '../db/migrations'
import { currentSchema, quoteIdentifier, withPostgres } from './backup-archive'

export interface PortableTable {
  name: string
  columns: string[]
  /** One array of values per row, in the order of `columns`: text, numbers and nulls only. */
  rows: unknown[][]
}

export interface PortableTables {
  tables: PortableTable[]
}

/** Kysely's own bookkeeping: the target's migrations write it anew. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock'])

/**
 * The search index (and SQLite's tables behind it) is left out: each engine builds its own, and
 * the target's triggers index the rows as they go in (db/migrations/0022-site-search.ts).
 */
function isSearchIndex(name: string): boolean {
  return name === 'search_index' || name.startsWith('search_index_')
}

function isCarried(name: string): boolean {
  return !MIGRATION_TABLES.has(name) && !isSearchIndex(name)
}

export function writeTables(file: string, tables: PortableTables): void {
  fs.writeFileSync(file, JSON.stringify(tables))
}

export function readTables(file: string): PortableTables {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as PortableTables
}

/** Every table of an SQLite file (a backup copy: nothing writes to it meanwhile). */
export function exportSqliteTables(file: string): PortableTables {
  const database = new SQLite(file, { readonly: true, fileMustExist: true })
  try {
    const names = database
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name")
      .pluck()
      .all() as string[]
    return {
      tables: names.filter(isCarried).map((name) => {
        const columns = (database.pragma(`table_info(${quoteIdentifier(name)})`) as { name: string }[]).map((c) => c.name)
        const rows = database
          .prepare(`select ${columns.map(quoteIdentifier).join(', ')} from ${quoteIdentifier(name)} order by rowid`)
          .raw()
          .all() as unknown[][]
        return { name, columns, rows }
      }),
    }
  } finally {
    database.close()
  }
}

/** Every table of the schema, read in the caller's transaction (the snapshot pg_dump also reads). */
export async function exportPostgresTables(client: pg.Client, schema: string): Promise<PortableTables> {
  const { rows: names } = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE' order by table_name",
    [schema],
  )
  const tables: PortableTable[] = []
  for (const { name } of names) {
    if (!isCarried(name)) continue
    const { rows: columnRows } = await client.query<{ name: string }>(
      'select column_name as name from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position',
      [schema, name],
    )
    const columns = columnRows.map((c) => c.name)
    const result = await client.query({
      text: `select ${columns.map(quoteIdentifier).join(', ')} from ${quoteIdentifier(schema)}.${quoteIdentifier(name)}`,
      rowMode: 'array',
      // Every value as PostgreSQL writes it as text (bigint included), except what JSON holds as it is.
      types: {
        getTypeParser: (oid: number) =>
          oid === 23 || oid === 21 ? Number : oid === 16 ? (v: string) => v === 't' : (v: string) => v,
      },
    } as pg.QueryArrayConfig)
    tables.push({ name, columns, rows: result.rows as unknown[][] })
  }
  return { tables }
}

/** Migrates a new database to exactly the backup's last migration. */
async function migrateTo(db: Kysely<unknown>, applied: string[], schema?: string): Promise<void> {
  if (applied.length === 0) return
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema })
  const { error, results } = await migrator.migrateTo(applied[applied.length - 1])
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'setup'
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The backup's rows for the target's tables; refuses a backup with a table or column the target lacks. */
function matchTables(tables: PortableTables, targetColumns: Map<string, Set<string>>): PortableTable[] {
  for (const table of tables.tables) {
    const columns = targetColumns.get(table.name)
    if (!columns) throw new Error(`The backup has a table "${table.name}" that this version of the site does not know.`)
    const unknown = table.columns.find((c) => !columns.has(c))
    if (unknown) throw new Error(`The backup's table "${table.name}" has a column "${unknown}" that this version does not know.`)
  }
  return tables.tables
}

/** Builds a new SQLite file holding the backup's rows, to be copied over the site's database. */
export async function buildSqliteDatabase(file: string, tables: PortableTables, applied: string[]): Promise<void> {
  const database = new SQLite(file)
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) })
  try {
    await migrateTo(db, applied)
    const targetColumns = new Map<string, Set<string>>()
    for (const { name } of database.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]) {
      targetColumns.set(
        name,
        new Set((database.pragma(`table_info(${quoteIdentifier(name)})`) as { name: string }[]).map((c) => c.name)),
      )
    }
    const rows = matchTables(tables, targetColumns)
    // Rows go in table by table: foreign keys are checked once everything is there.
    database.pragma('foreign_keys = OFF')
    database.transaction(() => {
      for (const table of rows) {
        const insert = database.prepare(
          `insert into ${quoteIdentifier(table.name)} (${table.columns.map(quoteIdentifier).join(', ')}) values (${table.columns.map(() => '?').join(', ')})`,
        )
        for (const row of table.rows) insert.run(row.map((v) => (typeof v === 'boolean' ? Number(v) : v)))
      }
    })()
    const broken = database.pragma('foreign_key_check') as { table: string }[]
    if (broken.length > 0) throw new Error(`The backup's rows break ${broken.length} references (first in "${broken[0].table}").`)
  } finally {
    await db.destroy()
  }
}

/** Tables in an order where each comes after the tables it refers to. */
function inReferenceOrder(tables: PortableTable[], references: { from: string; to: string }[]): PortableTable[] {
  const ordered: PortableTable[] = []
  const placed = new Set<string>()
  let rest = tables
  while (rest.length > 0) {
    const ready = rest.filter((t) =>
      references.every((r) => r.from !== t.name || r.to === t.name || placed.has(r.to) || !rest.some((o) => o.name === r.to)),
    )
    if (ready.length === 0) throw new Error(`The tables ${rest.map((t) => t.name).join(', ')} refer to each other in a circle.`)
    for (const table of ready) placed.add(table.name)
    ordered.push(...ready)
    rest = rest.filter((t) => !placed.has(t.name))
  }
  return ordered
}

/**
 * Fills the schema DATABASE_URL uses with the backup's rows: the tables are made by the
 * migrations in a new schema and filled there, which then takes the place of the old one, so a
 * failure leaves the target as it was.
 */
export async function restoreTablesIntoPostgres(databaseUrl: string, tables: PortableTables, applied: string[]): Promise<void> {
  const targetSchema = await withPostgres(databaseUrl, currentSchema)
  const building = `restore_${crypto.randomBytes(6).toString('hex')}`
  const quoted = quoteIdentifier(building)
  await withPostgres(databaseUrl, (client) => client.query(`create schema ${quoted}`))
  try {
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }),
        onCreateConnection: (connection) =>
          connection.executeQuery(CompiledQuery.raw(`set search_path to ${quoted}`)).then(() => {}),
      }),
    })
    try {
      await migrateTo(db, applied, building)
    } finally {
      await db.destroy()
    }
    await withPostgres(databaseUrl, async (client) => {
      const { rows: columnRows } = await client.query<{ table: string; column: string }>(
        'select table_name as table, column_name as column from information_schema.columns where table_schema = $1',
        [building],
      )
      const targetColumns = new Map<string, Set<string>>()
      for (const { table, column } of columnRows) targetColumns.set(table, (targetColumns.get(table) ?? new Set()).add(column))
      const { rows: references } = await client.query<{ from: string; to: string }>(
        `select source.relname as from, target.relname as to from pg_constraint c
           join pg_class source on source.oid = c.conrelid join pg_class target on target.oid = c.confrelid
           join pg_namespace n on n.oid = source.relnamespace where c.contype = 'f' and n.nspname = $1`,
        [building],
      )
      const ordered = inReferenceOrder(matchTables(tables, targetColumns), references)
      await client.query('begin')
      try {
        for (const table of ordered) {
          const insert = `insert into ${quoted}.${quoteIdentifier(table.name)} (${table.columns.map(quoteIdentifier).join(', ')}) values (${table.columns.map((_, i) => `$${i + 1}`).join(', ')})`
          for (const row of table.rows) await client.query(insert, row)
        }
        await client.query(`drop schema if exists ${quoteIdentifier(targetSchema)} cascade`)
        await client.query(`alter schema ${quoted} rename to ${quoteIdentifier(targetSchema)}`)
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw error
      }
    })
  } catch (error) {
    await withPostgres(databaseUrl, (client) => client.query(`drop schema if exists ${quoted} cascade`))
    throw error
  }
}
