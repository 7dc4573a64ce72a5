import { sql } from 'kysely'
import type { Database } from './db-schema'
import type { Db } from './db.server'
import { firstFreeSlug } from './slug'

/** The tables whose rows have a unique `slug` column. */
export type SluggedTable = { [T in keyof Database]: Database[T] extends { slug: string } ? T : never }[keyof Database]

// Each failed try means another request took a slug meanwhile; this many at once is far beyond a burst of edits.
const MAX_TRIES = 50

/**
 * Runs `insert` with the first of `base`, `base-2`, `base-3`... that no row of `table` has, inside
 * the caller's transaction. Two requests can pick the same free slug at once (on PostgreSQL both
 * read before either writes): the later insert hits the unique constraint, is rolled back to a
 * savepoint (the transaction stays usable) and is tried again with the next free slug. `base` is a
 * slug already (lower-case letters, digits and dashes), so it needs no escaping in LIKE.
 */
export async function insertWithUniqueSlug<T>(
  trx: Db,
  table: SluggedTable,
  base: string,
  insert: (slug: string) => Promise<T>,
): Promise<T> {
  if (!trx.isTransaction) throw new Error('insertWithUniqueSlug needs a transaction (it uses a savepoint)')
  for (let tries = 1; ; tries++) {
    const slug = await freeSlugIn(trx, table, base)
    await sql`savepoint unique_slug`.execute(trx)
    try {
      const result = await insert(slug)
      await sql`release savepoint unique_slug`.execute(trx)
      return result
    } catch (error) {
      await sql`rollback to savepoint unique_slug`.execute(trx)
      await sql`release savepoint unique_slug`.execute(trx)
      if (!isSlugTaken(error, table) || tries >= MAX_TRIES) throw error
    }
  }
}

async function freeSlugIn(trx: Db, table: SluggedTable, base: string): Promise<string> {
  const { rows } = await sql<{ slug: string }>`
    select slug from ${sql.table(table)} where slug = ${base} or slug like ${`${base}-%`}
  `.execute(trx)
  return firstFreeSlug(base, new Set(rows.map((row) => row.slug)))
}

/** A unique violation of `table`'s slug, as PostgreSQL (23505) and SQLite report it. */
function isSlugTaken(error: unknown, table: SluggedTable): boolean {
  if (!(error instanceof Error)) return false
  // The database's name of the table (CamelCasePlugin maps galleryItems to gallery_items).
  const name = table.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
  const { code, detail, table: violated } = error as Error & { code?: string; detail?: string; table?: string }
  if (code === '23505') return violated === name && /^Key \(slug\)=/.test(detail ?? '')
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && error.message.includes(`${name}.slug`)
}
