import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One row per record brought over from the old site's backend (npm run import:legacy), written
  // in the transaction that adds the record: a second run skips what the first one imported.
  await db.schema
    .createTable('legacy_imports')
    .addColumn('source_collection', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('target_table', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('legacy_imports_pk', ['source_collection', 'source_id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('legacy_imports').execute()
}
