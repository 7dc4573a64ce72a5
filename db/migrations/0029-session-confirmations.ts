import { sql, type Kysely } from 'kysely'

/**
 * When a session's owner last proved who they are (signing in, or typing their password again):
 * changing how an account signs in needs a recent proof, not only the session's cookie.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('confirmed_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await sql`update sessions set confirmed_at = created_at`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('confirmed_at').execute()
}
