import type { Lock, Locker, RequestRelease } from '@tus/server'
import { db } from '../db.server'
import { isLeaseOfGoneProcess, newLeaseToken } from '../lease-holder.server'
import { logger } from '../logger.server'

/**
 * tus's lock on an upload, kept in the database so that every process sharing it sees it: a
 * chunk sent to one process while another still writes the one before waits for it. The holder
 * renews its lock and ends its request when another asks for the upload (a client resuming after
 * a dropped connection) or when it finds its lock gone; a killed holder's lock is taken over at
 * once on its machine, and after a few seconds from anywhere.
 */

const UPLOAD_LOCK_POLICY = {
  /** A lock not renewed for this long is free; its holder renews it three times in that time. */
  expiresAfterMs: 9_000,
  /** A waiter looks again after this long, then twice as long each time, up to `maxRetryMs`. */
  firstRetryMs: 50,
  maxRetryMs: 1_000,
  /** A request that cannot have the upload by then is answered with tus's "locked" error. */
  acquireTimeoutMs: 30_000,
}

const later = (ms: number) => new Date(Date.now() + ms).toISOString()

class DatabaseLock implements Lock {
  readonly #holder = newLeaseToken()
  #renewal: NodeJS.Timeout | undefined

  constructor(
    readonly uploadId: string,
    readonly lockErrors: { timeout: unknown },
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + UPLOAD_LOCK_POLICY.acquireTimeoutMs
    let waitMs = UPLOAD_LOCK_POLICY.firstRetryMs
    let askedHolder = false
    while (!(await this.#tryTake())) {
      if (signal.aborted || Date.now() > deadline) throw this.lockErrors.timeout
      // Asked once: the holder reads it at its next renewal; a waiter does not write on every look.
      if (!askedHolder) await this.#askHolderToRelease()
      askedHolder = true
      await new Promise((resolve) => setTimeout(resolve, waitMs))
      waitMs = Math.min(waitMs * 2, UPLOAD_LOCK_POLICY.maxRetryMs)
    }
    this.#renewal = setInterval(() => {
      this.#renew(requestRelease).catch((error) => logger.warn({ err: error }, 'an upload lock could not be renewed'))
    }, UPLOAD_LOCK_POLICY.expiresAfterMs / 3)
    this.#renewal.unref()
  }

  async unlock(): Promise<void> {
    clearInterval(this.#renewal)
    await db.deleteFrom('uploadLocks').where('uploadId', '=', this.uploadId).where('holder', '=', this.#holder).execute()
  }

  async #tryTake(): Promise<boolean> {
    const now = new Date().toISOString()
    const expiresAt = later(UPLOAD_LOCK_POLICY.expiresAfterMs)
    const inserted = await db
      .insertInto('uploadLocks')
      .values({ uploadId: this.uploadId, holder: this.#holder, expiresAt, wantedAt: null })
      .onConflict((oc) => oc.column('uploadId').doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true
    const current = await db
      .selectFrom('uploadLocks')
      .select(['holder', 'expiresAt'])
      .where('uploadId', '=', this.uploadId)
      .executeTakeFirst()
    if (!current) return this.#tryTake()
    if (current.expiresAt >= now && !isLeaseOfGoneProcess(current.holder)) return false
    // Only if nobody took it meanwhile: the holder read above is still the one.
    const taken = await db
      .updateTable('uploadLocks')
      .set({ holder: this.#holder, expiresAt, wantedAt: null })
      .where('uploadId', '=', this.uploadId)
      .where('holder', '=', current.holder)
      .executeTakeFirst()
    return Number(taken.numUpdatedRows) > 0
  }

  async #askHolderToRelease(): Promise<void> {
    await db
      .updateTable('uploadLocks')
      .set({ wantedAt: new Date().toISOString() })
      .where('uploadId', '=', this.uploadId)
      .execute()
  }

  async #renew(requestRelease: RequestRelease): Promise<void> {
    const row = await db
      .updateTable('uploadLocks')
      .set({ expiresAt: later(UPLOAD_LOCK_POLICY.expiresAfterMs) })
      .where('uploadId', '=', this.uploadId)
      .where('holder', '=', this.#holder)
      .returning('wantedAt')
      .executeTakeFirst()
    // No row: the lock expired (a long pause) and another request took it; this one must stop writing.
    if (!row) clearInterval(this.#renewal)
    if (!row || row.wantedAt) await requestRelease()
  }
}

/** The locker for tus's server; `timeout` is the error tus answers a request that waited too long with. */
export function databaseLocker(lockErrors: { timeout: unknown }): Locker {
  return { newLock: (uploadId) => new DatabaseLock(uploadId, lockErrors) }
}

/** Locks whose holders stopped renewing them long ago (a killed process), for the sweep of uploads. */
export async function removeExpiredUploadLocks(before: Date): Promise<void> {
  await db.deleteFrom('uploadLocks').where('expiresAt', '<', before.toISOString()).execute()
}
