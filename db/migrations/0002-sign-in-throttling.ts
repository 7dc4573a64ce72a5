import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  // The layout rate-limiter-flexible's SQLite and PostgreSQL stores expect (key, points, expire in epoch ms).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute()
  await db.schema.createIndex('rate_limits_expire').on('rate_limits').column('expire').execute()

  // Expired sessions are swept by expiry time.
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sessions_expires_at').execute()
  await db.schema.dropTable('rate_limits').execute()
}
