import { logger } from '../logger.server'
import type { Storage } from '../storage/storage'
import { listReferencedImageKeys } from './images.server'

/**
 * A kind of record that owns stored files under one key prefix (images, videos, ...). The sweep
 * asks it which of its files are still referenced; the rest are leftovers.
 */
export interface StoredFileOwner {
  /** The folder of storage keys only this owner writes, with its slash: `images/`. */
  prefix: string
  /** Every key under `prefix` that a row still refers to. */
  listReferencedKeys(): Promise<Set<string>>
}

/** The files of `images` rows. */
export const imageFiles: StoredFileOwner = { prefix: 'images/', listReferencedKeys: () => listReferencedImageKeys() }

/**
 * Files are stored before the transaction that records them and deleted after the one that
 * drops them; a process killed in between leaves them behind. An hour is far longer than any
 * store-then-commit, so files younger than that may belong to a change still under way (in
 * this process or another one).
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000

export interface SweepResult {
  unreferenced: number
  abandonedWrites: number
}

/**
 * Removes stored files that no row refers to and partial writes that never finished, both older
 * than the grace period. Run at start-up and then every hour with every owner of files.
 */
export async function removeUnreferencedFiles(
  storage: Storage,
  owners: readonly StoredFileOwner[],
  now = new Date(),
): Promise<SweepResult> {
  const cutoff = new Date(now.getTime() - SWEEP_GRACE_MS)
  let unreferenced = 0
  for (const owner of owners) {
    // References first: a file stored after this read is younger than the cutoff.
    const referenced = await owner.listReferencedKeys()
    for await (const object of storage.list(owner.prefix)) {
      if (object.lastModified >= cutoff || referenced.has(object.key)) continue
      await storage.delete(object.key)
      unreferenced++
    }
  }
  const abandonedWrites = (await storage.removeAbandonedWrites?.(cutoff)) ?? 0
  if (unreferenced > 0 || abandonedWrites > 0) {
    logger.info({ unreferenced, abandonedWrites }, 'removed stored files that nothing refers to')
  }
  return { unreferenced, abandonedWrites }
}
