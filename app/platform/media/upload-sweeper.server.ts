import fs from 'node:fs'
import path from 'node:path'
import { db } from '../db.server'
import { logger } from '../logger.server'
import { removeExpiredUploadLocks } from './upload-locks.server'
import { QUOTA_WINDOW_MS } from './upload-quotas.server'
import { uploadsDir } from './upload-stores.server'
import { discardUpload, isUploadId, UPLOAD_POLICY } from './uploads.server'

/**
 * Removes unfinished uploads nobody has added to for an hour (in a bucket, their multipart upload
 * is aborted), finished ones no form used for a day, files on local disk without an owner (left by
 * a crash or a removed user) once they are an hour old, and starts that have left the hourly
 * quota's window. Returns how many uploads and files it removed.
 */
export async function sweepAbandonedUploads(now = new Date()): Promise<number> {
  const before = (ms: number) => new Date(now.getTime() - ms)
  const cutoff = before(UPLOAD_POLICY.unfinishedKeptMs)
  const stale = await db
    .selectFrom('uploads')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('updatedAt', '<', before(UPLOAD_POLICY.finishedKeptMs).toISOString()),
        eb.and([eb('updatedAt', '<', cutoff.toISOString()), eb('received', '<', eb.ref('size'))]),
      ]),
    )
    .execute()
  for (const { id } of stale) await discardUpload(id)
  await db.deleteFrom('uploadStarts').where('startedAt', '<', before(QUOTA_WINDOW_MS).toISOString()).execute()
  await removeExpiredUploadLocks(cutoff)

  // Listed before the owners are read: a file created meanwhile has its row already.
  const names = await fs.promises.readdir(uploadsDir()).catch(() => [] as string[])
  const owned = new Set((await db.selectFrom('uploads').select('id').execute()).map((r) => r.id))
  const orphans = new Set<string>()
  for (const name of names) {
    const id = name.replace(/\.json$/, '')
    if (!isUploadId(id) || owned.has(id)) continue
    const stats = await fs.promises.stat(path.join(uploadsDir(), name)).catch(() => null)
    if (stats && stats.mtime < cutoff) {
      await fs.promises.rm(path.join(uploadsDir(), name), { force: true })
      orphans.add(id)
    }
  }
  const removed = stale.length + orphans.size
  if (removed) logger.info({ removed }, 'removed abandoned uploads')
  return removed
}

let sweepTimer: NodeJS.Timeout | null = null
let sweeping: Promise<unknown> | null = null

function runSweep(): void {
  if (sweeping) return
  sweeping = sweepAbandonedUploads()
    .catch((error) => logger.error({ err: error }, 'sweeping abandoned uploads failed'))
    .finally(() => (sweeping = null))
}

/** Sweeps now (uploads left while the site was down) and then every ten minutes; started with the server. */
export function startUploadSweeper(intervalMs = UPLOAD_POLICY.sweepEveryMs): void {
  if (sweepTimer) return
  sweepTimer = setInterval(runSweep, intervalMs)
  sweepTimer.unref()
  runSweep()
}

export async function stopUploadSweeper(): Promise<void> {
  if (sweepTimer) clearInterval(sweepTimer)
  sweepTimer = null
  await sweeping
}
