import type { Kysely } from 'kysely'

/** Editable page texts: one JSON document per public page, validated by the app on save and read. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('page_sections')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('page_sections').execute()
}
