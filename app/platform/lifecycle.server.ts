import { db } from './db.server'
import { startUploadSweeper, stopUploadSweeper } from './media/uploads.server'
import { startVideoWorker, stopVideoWorker } from './media/videos.server'
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
  startUploadSweeper()
  startVideoWorker()
}

export async function closeServer(): Promise<void> {
  await Promise.all([stopDeliveryWorker(), stopUploadSweeper(), stopVideoWorker()])
  closeRateLimiters()
  await db.destroy()
}
