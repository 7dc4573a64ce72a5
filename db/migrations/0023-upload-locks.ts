import type { Kysely } from 'kysely'

/**
 * Who is writing to a resumable upload right now (platform/media/upload-locks.server.ts): a lock
 * that every process sharing the database sees, so two of them never write one upload at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_locks')
    .addColumn('upload_id', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('wanted_at', 'text')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_locks').execute()
}
