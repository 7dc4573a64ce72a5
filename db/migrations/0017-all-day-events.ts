import type { Kysely } from 'kysely'

/**
 * All-day events (a distribution day, a deadline): a date and no time. Such an event is stored at
 * the start of its day in the site's time zone (its end, if any, at the start of its last day), so
 * series of them are walked like any other, at 00:00.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('events')
    .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('all_day').execute()
}
