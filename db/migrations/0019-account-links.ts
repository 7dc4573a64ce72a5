import type { Kysely } from 'kysely'

/**
 * One-time links that let a person choose a password without knowing one: a forgotten-password
 * link for a user, or an invitation for someone who has no account yet. Only the SHA-256 of the
 * link's secret is kept. A reset link also keeps a fingerprint of the password it replaces, so
 * any password change makes it useless. Sessions remember the browser and address they began
 * with, for the account's list of devices.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('password_fingerprint', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.createIndex('account_links_purpose_expires').on('account_links').columns(['purpose', 'expires_at']).execute()
  await db.schema.createIndex('account_links_user').on('account_links').column('user_id').execute()
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute()
  await db.schema.alterTable('sessions').addColumn('client_address', 'text').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('client_address').execute()
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute()
  await db.schema.dropTable('account_links').execute()
}
