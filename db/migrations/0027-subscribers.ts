import type { Kysely } from 'kysely'

/**
 * People who asked for e-mail updates (double opt-in), and whether an article is to be e-mailed
 * to the subscribers of News once it is public (docs/decisions/035-outgoing-mail-and-newsletters.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscribers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text', (c) => c.notNull())
    // A comma-separated list of topics: news, events, marketplace.
    .addColumn('topics', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('confirm_secret_hash', 'text')
    .addColumn('manage_secret', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // When the current invitation to confirm was sent: it expires, and the row goes, 7 days later.
    .addColumn('pending_since', 'text')
    .addColumn('confirmed_at', 'text')
    .addColumn('unsubscribed_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('subscribers_state').on('subscribers').columns(['state', 'pending_since']).execute()
  await db.schema.createIndex('subscribers_confirm').on('subscribers').column('confirm_secret_hash').execute()

  await db.schema
    .alterTable('articles')
    .addColumn('email_to_subscribers', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('articles').addColumn('emailed_at', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').dropColumn('emailed_at').execute()
  await db.schema.alterTable('articles').dropColumn('email_to_subscribers').execute()
  await db.schema.dropTable('subscribers').execute()
}
