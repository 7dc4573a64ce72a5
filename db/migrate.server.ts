import { Migrator, sql } from 'kysely'
import { migrations } from './migrations'
import { db, dialectName } from '~/platform/db.server'

/** The app database's migrator (tests of a migration also move it back to an earlier one). */
export async function createMigrator(): Promise<Migrator> {
  // On PostgreSQL the bookkeeping tables belong to the schema in use (search_path), not to whichever schema has them.
  const schema =
    dialectName === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
      : undefined
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  })
}

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(): Promise<void> {
  const { error, results } = await (await createMigrator()).migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'setup'
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}
