import type { Kysely } from 'kysely'

/**
 * Every e-mail the site sends to a person in bulk or one by one (newsletters, confirmations,
 * reminders): one row per recipient, drained by a paced leased queue (docs/decisions/035).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('outgoing_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    // Small JSON objects: extra headers (List-Unsubscribe...) and attachments (an .ics).
    .addColumn('headers', 'text')
    .addColumn('attachments', 'text')
    .addColumn('batch_id', 'text')
    // Unique, several NULLs allowed on both databases: the same e-mail is never queued twice.
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    // `visitor` (the public site caused it) or `admin`: each has its own quota of waiting e-mails.
    .addColumn('origin', 'text', (c) => c.notNull().defaultTo('visitor'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('outgoing_emails_due').on('outgoing_emails').columns(['status', 'next_attempt_at']).execute()
  await db.schema.createIndex('outgoing_emails_origin').on('outgoing_emails').columns(['origin', 'status']).execute()
  await db.schema.createIndex('outgoing_emails_batch').on('outgoing_emails').columns(['batch_id', 'status']).execute()
  await db.schema.createIndex('outgoing_emails_to').on('outgoing_emails').column('to_address').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outgoing_emails').execute()
}
