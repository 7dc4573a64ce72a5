import { sql, type Kysely } from 'kysely'

/**
 * Demo content is marked as sample in a column, shown to administrators only (a badge in the admin
 * lists, a count on the dashboard). Sites seeded before carry a sentence for administrators at the
 * end of each demo text, which visitors read too: such rows are marked, and lose the sentence.
 */
const NOTES = [
  {
    table: 'articles',
    column: 'content',
    note: '*This is a sample article that comes with a new site. An administrator can edit or delete it under Admin → News.*',
  },
  {
    table: 'media_items',
    column: 'description',
    note: 'This is a sample item that comes with a new site; an administrator can edit or delete it under Admin → Gallery.',
  },
  {
    table: 'events',
    column: 'description',
    note: 'This is a sample event that comes with a new site. An administrator can edit or delete it under Admin → Events.',
  },
  {
    table: 'products',
    column: 'description',
    note: 'This is a sample product that comes with a new site; a marketplace manager can edit or delete it under Admin → Products.',
  },
] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, column, note } of NOTES) {
    await db.schema
      .alterTable(table)
      .addColumn('is_sample', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    const suffix = `\n\n${note}`
    await db
      .updateTable(table)
      .set({ is_sample: 1, [column]: sql`replace(${sql.ref(column)}, ${suffix}, '')` })
      .where(column, 'like', `%${note}`)
      .execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table } of NOTES) await db.schema.alterTable(table).dropColumn('is_sample').execute()
}
