import type { Database } from './db-schema'
import type { Db } from './db.server'

const SLUG_MAX = 80

/** A readable, URL-safe form of a title: 'Back to School Drive!' -> 'back-to-school-drive'; `fallback` when nothing is left. */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '')
  return slug || fallback
}

/** The tables whose rows have a `slug` of their own. */
type SluggedTable = { [T in keyof Database]: Database[T] extends { slug: string } ? T : never }[keyof Database]

/** The title's slug, with -2, -3, ... added when `table` has it already. Run it in the transaction that inserts the row. */
export async function uniqueSlug(executor: Db, table: SluggedTable, title: string, fallback: string): Promise<string> {
  const base = slugify(title, fallback)
  const taken = new Set(
    (
      await executor
        .selectFrom(table as 'articles')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute()
    ).map((r) => r.slug),
  )
  let slug = base
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`
  return slug
}
