import type { Kysely } from 'kysely'

/**
 * Links that show a draft or scheduled item to someone without an account, for seven days
 * (docs/decisions/033-preview-links.md). Only the SHA-256 of a link's secret is kept.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('preview_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('item_table', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('preview_links_item').on('preview_links').columns(['item_table', 'item_id']).execute()
  await db.schema.createIndex('preview_links_expires').on('preview_links').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('preview_links').execute()
}
