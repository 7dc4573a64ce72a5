import { sql } from 'kysely'
import { db, dialectName } from '~/platform/db.server'

/** Deletes every row of every app table (not the migration bookkeeping). */
export async function emptyAllTables(): Promise<void> {
  // PostgreSQL: this schema's tables only, read from the catalogue. Introspecting every schema would
  // fail when another test run drops its own schema meanwhile.
  const names =
    dialectName === 'postgres'
      ? (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db))
          .rows
      : await db.introspection.getTables()
  const tables = names
    .map((t) => t.name)
    .filter((name) => !name.startsWith('kysely_'))
    // SQLite's full-text index keeps its words in tables of its own: emptying the articles (and the others) empties it.
    .filter((name) => dialectName === 'postgres' || !name.startsWith('search_index_'))
  if (tables.length === 0) return
  if (dialectName === 'postgres') {
    await sql`truncate ${sql.join(tables.map((t) => sql.table(t)))} cascade`.execute(db)
    return
  }
  await sql`pragma foreign_keys = off`.execute(db)
  for (const table of tables) await sql`delete from ${sql.table(table)}`.execute(db)
  await sql`pragma foreign_keys = on`.execute(db)
}
