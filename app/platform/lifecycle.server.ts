import { db } from './db.server'
import { migrateToLatest } from './migrate.server'
import { closeRateLimiters } from './rate-limit.server'
import { startDeliveryTimer, stopDeliveryWorker } from '~/modules/inbox/inbox.delivery.server'
import { ensureFirstAdmin } from '~/modules/users/first-admin.server'
import { seedDemoContentIfEmpty } from '../../db/seed'

/** Runs once when the HTTP server starts, before it accepts requests. */
export async function prepareServer(): Promise<void> {
  await migrateToLatest()
  await seedDemoContentIfEmpty()
  await ensureFirstAdmin()
  startDeliveryTimer()
}

export async function closeServer(): Promise<void> {
  await stopDeliveryWorker()
  closeRateLimiters()
  await db.destroy()
}
