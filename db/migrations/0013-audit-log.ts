import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One row per thing an administrator did (or tried: failed sign-ins), kept for AUDIT_LOG_DAYS.
  // No foreign key to users: an entry outlives its actor, whose e-mail and name are kept as text.
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text')
    // The client's address, or 'command line' for the command-line tools.
    .addColumn('client_address', 'text', (c) => c.notNull())
    // A small JSON object (counts of an import, the role given...), or null.
    .addColumn('detail', 'text')
    .execute()
  // Newest first, and the retention sweep; the filters by who and by what, each newest first.
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute()
  await db.schema.createIndex('audit_events_actor_at').on('audit_events').columns(['actor_email', 'at']).execute()
  await db.schema.createIndex('audit_events_action_at').on('audit_events').columns(['action', 'at']).execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_events').execute()
}
