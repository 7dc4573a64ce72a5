import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One row per uploaded image; `variants` is a JSON list of the re-encoded files (storage keys, sizes).
  await db.schema
    .createTable('images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('alt', 'text', (c) => c.notNull())
    .addColumn('variants', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('articles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    // Only set by the importer from the old site, where media shared the collection.
    .addColumn('category', 'text')
    .addColumn('image_id', 'text', (c) => c.references('images.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('articles_created_at').on('articles').column('created_at').execute()
  await db.schema.createIndex('articles_image_id').on('articles').column('image_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('articles').execute()
  await db.schema.dropTable('images').execute()
}
