import type { Kysely } from 'kysely'

/**
 * A sign-up repeated with a contact already on the date (docs/decisions/047): answered exactly as a
 * new one, with a page of its own, so that the form tells nobody who attends; it holds no place,
 * is on no list, and its contact is not kept.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repeated_signups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('party_size', 'integer', (c) => c.notNull())
    // What a new sign-up would have been told: 'confirmed' or 'waiting'.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('repeated_signups_date').on('repeated_signups').columns(['event_id', 'date']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('repeated_signups').execute()
}
