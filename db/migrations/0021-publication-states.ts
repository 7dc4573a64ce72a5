import type { Kysely } from 'kysely'

const TABLES = ['articles', 'media_items', 'events', 'products'] as const

/**
 * Drafts, scheduled items and a trash (docs/decisions/027-drafts-schedules-and-trash.md): each
 * publishable row has a publish time (null for a draft, later than now when scheduled) and a
 * trash time (null unless deleted). What the site already shows stays published: from when it was made.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('publish_at', 'text').execute()
    await db.schema.alterTable(table).addColumn('trashed_at', 'text').execute()
    await db
      .updateTable(table)
      .set((eb) => ({ publish_at: eb.ref('created_at') }))
      .execute()
    await db.schema.createIndex(`${table}_publish_at`).on(table).column('publish_at').execute()
    await db.schema.createIndex(`${table}_trashed_at`).on(table).column('trashed_at').execute()
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_trashed_at`).execute()
    await db.schema.dropIndex(`${table}_publish_at`).execute()
    await db.schema.alterTable(table).dropColumn('trashed_at').execute()
    await db.schema.alterTable(table).dropColumn('publish_at').execute()
  }
}
