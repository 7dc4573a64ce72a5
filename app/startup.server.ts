import { migrateToLatest } from '../db/migrate.server'
import { seedDemoContentIfEmpty } from '../db/seed'
import { startAuditSweeper, stopAuditSweeper } from '~/modules/audit/audit.service.server'
import { startDeliveryTimer, stopDeliveryWorker } from '~/modules/inbox/inbox.delivery.server'
import { startMailingWorker, stopMailingWorker } from '~/modules/newsletter/mailings.server'
import { startOutgoingMailWorker, stopOutgoingMailWorker } from '~/modules/outgoing-mail/outgoing-mail.delivery.server'
import { sweepPreviewLinks } from '~/modules/previews/preview-links.server'
import { startSignupReminders, stopSignupReminders } from '~/modules/events/signups.reminders.server'
import { openSetup, setupWaitsAtStart } from '~/modules/setup/setup.server'
import { ensureFirstAdmin } from '~/modules/users/first-admin.server'
import { countUsers } from '~/modules/users/users.queries.server'
import { accountEmailsSent } from '~/modules/users/account-emails.server'
import { startTrashPurger, stopTrashPurger } from '~/modules/trash/trash.server'
import { createBackgroundWorker } from '~/platform/background-worker.server'
import { db } from '~/platform/db.server'
import { canSendEmail } from '~/platform/email.server'
import { env } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { imageFiles, removeUnreferencedFiles, type StoredFileOwner } from '~/platform/media/unreferenced-files.server'
import { startUploadSweeper, stopUploadSweeper } from '~/platform/media/upload-sweeper.server'
import { startVideoWorker, stopVideoWorker } from '~/platform/media/video-conversion.server'
import { videoFiles } from '~/platform/media/videos.server'
import { closeRateLimiters } from '~/platform/rate-limit.server'
import { storage } from '~/platform/storage/index.server'
import { sweepTempFiles } from '~/platform/temp-files.server'

/** Every kind of record that owns stored files: the sweep keeps what these refer to. */
const STORED_FILE_OWNERS: StoredFileOwner[] = [imageFiles, videoFiles]

/**
 * A process killed mid-upload leaves files no row refers to. They are removed once an hour old,
 * so the sweep runs at start and then on a timer: the files of a crash are gone without another
 * restart.
 */
const unreferencedFilesSweeper = createBackgroundWorker({
  name: 'sweep of unreferenced stored files',
  pass: async () => {
    await removeUnreferencedFiles(storage, STORED_FILE_OWNERS)
    return { more: false }
  },
  intervalMs: env.UNREFERENCED_FILES_SWEEP_SECONDS * 1000,
})

/** Preview links end once their item is public, trashed or deleted, even if nobody opens them again. */
const previewLinksSweeper = createBackgroundWorker({
  name: 'sweep of ended preview links',
  pass: async () => {
    await sweepPreviewLinks()
    return { more: false }
  },
  intervalMs: 60_000,
})

/**
 * Runs once when the HTTP server starts, before it accepts requests. A site without an account
 * waits for its owner: the answer holds the setup page's path, which the server prints with its
 * address. ADMIN_EMAIL sets a site up without a browser, with the demo content.
 */
export async function prepareServer(): Promise<{ setupPath: string | null }> {
  await migrateToLatest()
  const setupPath = setupWaitsAtStart(await countUsers()) ? await openSetup() : null
  if (!setupPath) {
    await seedDemoContentIfEmpty()
    await ensureFirstAdmin()
  }
  // What killed processes left in DATA_DIR/tmp (a download, a half-converted video).
  await sweepTempFiles().catch((error) => logger.error({ err: error }, 'sweeping temporary files failed'))
  // The first sweep is done before the first request; a failed sweep is logged and does not stop the site.
  unreferencedFilesSweeper.start()
  await unreferencedFilesSweeper.idle()
  startDeliveryTimer()
  if (canSendEmail()) startOutgoingMailWorker()
  startMailingWorker()
  startUploadSweeper()
  startVideoWorker()
  startAuditSweeper()
  startTrashPurger()
  previewLinksSweeper.start()
  startSignupReminders()
  return { setupPath }
}

export async function closeServer(): Promise<void> {
  await Promise.all([
    stopDeliveryWorker(),
    stopOutgoingMailWorker(),
    stopMailingWorker(),
    stopUploadSweeper(),
    stopVideoWorker(),
    stopAuditSweeper(),
    stopTrashPurger(),
    unreferencedFilesSweeper.stop(),
    previewLinksSweeper.stop(),
    stopSignupReminders(),
    accountEmailsSent(),
  ])
  closeRateLimiters()
  await db.destroy()
}
