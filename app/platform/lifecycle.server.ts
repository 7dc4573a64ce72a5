import { db } from './db.server'
import { migrateToLatest } from './migrate.server'

/** Runs once when the HTTP server starts, before it accepts requests. */
export async function prepareServer(): Promise<void> {
  await migrateToLatest()
}

export async function closeServer(): Promise<void> {
  await db.destroy()
}
