import type { Kysely } from 'kysely'

/**
 * Two-step sign-in (app/modules/users/two-step.server.ts, passkeys.server.ts): passkeys, a person's authenticator-app secret,
 * their single-use recovery codes (hashed), and sign-ins whose password was right but whose
 * second step is still to come. Which roles must use it is a site setting (`settings` table).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('authenticator_apps')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    // Null while the person has not yet entered a first code from the app.
    .addColumn('confirmed_at', 'text')
    // The newest time step a code was accepted for: no code is accepted twice.
    .addColumn('last_time_step', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute()
  await db.schema
    .createTable('pending_sign_ins')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'second-step': enter a code; 'setup': the role requires two-step sign-in and it is not set up yet.
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('redirect_to', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('pending_sign_ins_expires').on('pending_sign_ins').column('expires_at').execute()
  // Passkeys (WebAuthn): the credential's id and public key, and its signature counter.
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'integer', (c) => c.notNull())
    // JSON list of how the browser reaches the authenticator ('internal', 'usb', ...).
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute()
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute()
  // A challenge handed to the browser, usable once, for a while; a registration's names its user.
  await db.schema
    .createTable('passkey_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('passkey_challenges_expires').on('passkey_challenges').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute()
  await db.schema.dropTable('passkeys').execute()
  await db.schema.dropTable('pending_sign_ins').execute()
  await db.schema.dropTable('recovery_codes').execute()
  await db.schema.dropTable('authenticator_apps').execute()
}
