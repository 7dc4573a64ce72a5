import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { env } from './env.server'
import { isLeaseOfGoneProcess, newLeaseToken } from './lease-holder.server'
import { logger } from './logger.server'

/**
 * Files a request or a job needs on local disk for a while (an upload being checked, a video being
 * converted), under DATA_DIR/tmp/<this process>. Their owner removes them when it ends; a killed
 * process cannot, so each start removes the folders of processes that are gone. Several processes
 * may share one DATA_DIR (the cluster): each one's folder is named after it, like a lease token.
 */

const TEMP_ROOT = 'tmp'
/** A folder whose process cannot be checked (another machine, no /proc) is removed once it is this old. */
const UNKNOWN_OWNER_KEPT_MS = 24 * 60 * 60_000

// Slashes cannot be in a folder name; the token is read back by isLeaseOfGoneProcess.
const processFolder = newLeaseToken().replaceAll('/', '~')

function tempRoot(): string {
  return path.join(env.dataDir, TEMP_ROOT)
}

/** A new path for a temporary file named `name` (unique within this process, e.g. an id). */
export async function tempFile(name: string): Promise<string> {
  const folder = path.join(tempRoot(), processFolder)
  await fs.promises.mkdir(folder, { recursive: true })
  return path.join(folder, `${crypto.randomBytes(6).toString('hex')}-${name}`)
}

/** Free bytes on the disk of the temporary files. */
export async function tempFreeBytes(): Promise<number> {
  await fs.promises.mkdir(tempRoot(), { recursive: true })
  const { bavail, bsize } = await fs.promises.statfs(tempRoot())
  return bavail * bsize
}

export async function removeTempFile(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true })
}

/** Removes the temporary files of processes that have exited or been killed; returns how many folders went. */
export async function sweepTempFiles(now = new Date()): Promise<number> {
  const folders = await fs.promises.readdir(tempRoot()).catch(() => [] as string[])
  let removed = 0
  for (const folder of folders) {
    if (folder === processFolder) continue
    const stats = await fs.promises.stat(path.join(tempRoot(), folder)).catch(() => null)
    if (!stats) continue
    const gone = isLeaseOfGoneProcess(folder.replaceAll('~', '/'))
    if (gone || stats.mtime.getTime() < now.getTime() - UNKNOWN_OWNER_KEPT_MS) {
      await fs.promises.rm(path.join(tempRoot(), folder), { recursive: true, force: true })
      removed++
    }
  }
  if (removed) logger.info({ removed }, 'removed temporary files of stopped processes')
  return removed
}
