import { sql } from 'kysely'
import { db, dialectName } from '~/platform/db.server'

/** Deletes every row of every app table (not the migration bookkeeping). */
export async function emptyAllTables(): Promise<void> {
  // PostgreSQL lists the tables of every schema; other test runs on the same server have their own.
  const schema =
    dialectName === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s : undefined
  const tables = (await db.introspection.getTables())
    .filter((t) => schema === undefined || t.schema === schema)
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
