import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // One row per event; a repeating event is one row with its rule (occurrences are computed).
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // The first (or only) occurrence, ISO-8601 UTC.
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text')
    .addColumn('repeat', 'text', (c) => c.notNull())
    // The series' last day ('YYYY-MM-DD' in the site's time zone) or its number of occurrences; neither: no end.
    .addColumn('repeat_until', 'text')
    .addColumn('repeat_count', 'integer')
    // The start of the last occurrence (ISO-8601 UTC), null when the series never ends: lets queries skip past events.
    .addColumn('last_starts_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('events_starts_at').on('events').column('starts_at').execute()
  await db.schema.createIndex('events_last_starts_at').on('events').column('last_starts_at').execute()

  // Dates taken out of a series ('YYYY-MM-DD' in the site's time zone): "delete this occurrence".
  await db.schema
    .createTable('event_skipped_dates')
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_skipped_dates_pk', ['event_id', 'date'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_skipped_dates').execute()
  await db.schema.dropTable('events').execute()
}
