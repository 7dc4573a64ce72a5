import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One row per resumable upload (tus): who may continue it, and when it was last touched.
  // The bytes live on local disk under DATA_DIR/tus, outside the public uploads.
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('uploads_updated_at').on('uploads').column('updated_at').execute()

  // One row per video, and at the same time its conversion job (leases as in contact_deliveries).
  await db.schema
    .createTable('videos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_text', 'text')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('original_format', 'text', (c) => c.notNull())
    .addColumn('video_key', 'text')
    .addColumn('poster_image_id', 'text', (c) => c.references('images.id'))
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('videos_due').on('videos').columns(['status', 'next_attempt_at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('videos').execute()
  await db.schema.dropTable('uploads').execute()
}
