import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Sign-ups for events (docs/decisions/036-event-sign-ups.md): an event's sign-up form (present:
 * the event takes sign-ups) and the people signed up per date, confirmed or on the waiting list.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_signup_forms')
    .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
    // Places per date (people, a party counting as its size); null: no limit.
    .addColumn('place_limit', 'integer')
    // 'email', 'whatsapp' or 'either': how the person can be reached.
    .addColumn('contact', 'text', (c) => c.notNull())
    .addColumn('asks_party_size', 'integer', (c) => c.notNull())
    // Sign-ups for a date close this many hours before it starts.
    .addColumn('closes_hours_before', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('event_signups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    // The occurrence: its day in the site's time zone, as in the event's address (?date=).
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('whatsapp', 'text')
    .addColumn('party_size', 'integer', (c) => c.notNull())
    // 'confirmed' or 'waiting'; a cancelled sign-up is deleted.
    .addColumn('status', 'text', (c) => c.notNull())
    // The secret of the person's link to see and cancel it.
    .addColumn('cancel_token', 'text', (c) => c.notNull().unique())
    // The site's address the person signed up at: links in later e-mails (reminder, a place freed) lead there.
    .addColumn('site_origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('promoted_at', 'text')
    .addColumn('reminder_queued_at', 'text')
    .execute()
  await db.schema.createIndex('event_signups_date').on('event_signups').columns(['event_id', 'date', 'created_at']).execute()
  // One sign-up per date and contact, even from parallel posts: an e-mail address in any case, a
  // WhatsApp number as kept (digits and a leading +). Rows without one (null) never clash.
  await sql`create unique index event_signups_one_per_email on event_signups (event_id, date, lower(email))`.execute(db)
  await db.schema
    .createIndex('event_signups_one_per_whatsapp')
    .on('event_signups')
    .columns(['event_id', 'date', 'whatsapp'])
    .unique()
    .execute()
  // A sign-up's e-mails are found by a range of their keys (signupEmailKeys), compared in bytes on
  // PostgreSQL; SQLite's unique index on dedupe_key compares so already.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create index outgoing_emails_dedupe_key_bytes on outgoing_emails (dedupe_key collate "C")`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists outgoing_emails_dedupe_key_bytes`.execute(db)
  await db.schema.dropTable('event_signups').execute()
  await db.schema.dropTable('event_signup_forms').execute()
}
