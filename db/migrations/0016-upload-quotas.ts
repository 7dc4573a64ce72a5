import type { Kysely } from 'kysely'

/**
 * What the upload quotas read (platform/media/upload-quotas.server.ts): how much of each upload
 * has arrived, and every upload started in the last hour, kept after the upload itself is gone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('received', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('upload_starts')
    .addColumn('upload_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('upload_starts_user_started').on('upload_starts').columns(['user_id', 'started_at']).execute()
  await db.schema.createIndex('upload_starts_started').on('upload_starts').column('started_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_starts').execute()
  await db.schema.alterTable('uploads').dropColumn('received').execute()
}
