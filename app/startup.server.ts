import { migrateToLatest } from '../db/migrate.server'
import { seedDemoContentIfEmpty } from '../db/seed'
import { startAuditSweeper, stopAuditSweeper } from '~/modules/audit/audit.service.server'
import { startDeliveryTimer, stopDeliveryWorker } from '~/modules/inbox/inbox.delivery.server'
import { ensureFirstAdmin } from '~/modules/users/first-admin.server'
import { db } from '~/platform/db.server'
import { logger } from '~/platform/logger.server'
import { imageFiles, removeUnreferencedFiles, type StoredFileOwner } from '~/platform/media/unreferenced-files.server'
import { startUploadSweeper, stopUploadSweeper } from '~/platform/media/uploads.server'
import { startVideoWorker, stopVideoWorker, videoFiles } from '~/platform/media/videos.server'
import { closeRateLimiters } from '~/platform/rate-limit.server'
import { storage } from '~/platform/storage/index.server'

/** Every kind of record that owns stored files: the start-up sweep keeps what these refer to. */
const STORED_FILE_OWNERS: StoredFileOwner[] = [imageFiles, videoFiles]

/** Runs once when the HTTP server starts, before it accepts requests. */
export async function prepareServer(): Promise<void> {
  await migrateToLatest()
  await seedDemoContentIfEmpty()
  await ensureFirstAdmin()
  // A process killed mid-upload leaves files no row refers to; a failed sweep must not stop the site.
  await removeUnreferencedFiles(storage, STORED_FILE_OWNERS).catch((error) =>
    logger.error({ err: error }, 'could not remove unreferenced stored files'),
  )
  startDeliveryTimer()
  startUploadSweeper()
  startVideoWorker()
  startAuditSweeper()
}

export async function closeServer(): Promise<void> {
  await Promise.all([stopDeliveryWorker(), stopUploadSweeper(), stopVideoWorker(), stopAuditSweeper()])
  closeRateLimiters()
  await db.destroy()
}
