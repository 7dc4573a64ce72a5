import type { Transaction } from 'kysely'
import type { Database } from '../db-schema'
import { lockForUpdate } from '../db.server'
import { env } from '../env.server'
import { minutesToWait } from '../rate-limit.server'
import { UPLOAD_DISK_RESERVE_BYTES, UPLOAD_REFUSED } from './upload-policy'

const MB = 1024 * 1024
export const QUOTA_WINDOW_MS = 60 * 60_000

/** An upload refused before it started: `message` is for the person, `status` 413, 429 or 507. */
export class UploadRefusedError extends Error {
  constructor(
    readonly status: 413 | 429 | 507,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'UploadRefusedError'
  }
}

export interface UploadStart {
  uploadId: string
  userId: string
  /** Declared bytes (Upload-Length). */
  size: number
  /** Free bytes on the uploads' disk, measured just before. */
  freeBytes: number
  now: Date
}

/**
 * Records the start of an upload, or throws UploadRefusedError if it would take its user over a
 * quota (unfinished uploads at once, uploads started in the last hour) or leave the disk less than
 * its reserve once every accepted upload has arrived. Runs in the caller's transaction, which also
 * records the upload: the user's row is locked first, so parallel requests cannot both take the
 * last place (SQLite's transactions run one at a time anyway).
 */
export async function admitUpload(trx: Transaction<Database>, start: UploadStart): Promise<void> {
  await lockForUpdate(trx.selectFrom('users').select('id').where('id', '=', start.userId)).execute()
  await checkUnfinished(trx, start)
  await checkLastHour(trx, start)
  await checkDisk(trx, start)
  await trx
    .insertInto('uploadStarts')
    .values({ uploadId: start.uploadId, userId: start.userId, size: start.size, startedAt: start.now.toISOString() })
    .execute()
}

async function checkUnfinished(trx: Transaction<Database>, { userId, size }: UploadStart): Promise<void> {
  const unfinished = await trx
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes')])
    .where('userId', '=', userId)
    .whereRef('received', '<', 'size')
    .executeTakeFirstOrThrow()
  if (Number(unfinished.count) >= env.UPLOAD_LIMIT_UNFINISHED) {
    throw new UploadRefusedError(429, UPLOAD_REFUSED.tooManyUnfinished(env.UPLOAD_LIMIT_UNFINISHED))
  }
  if (Number(unfinished.bytes) + size > env.UPLOAD_LIMIT_UNFINISHED_MB * MB) {
    throw new UploadRefusedError(413, UPLOAD_REFUSED.tooLargeWithUnfinished(env.UPLOAD_LIMIT_UNFINISHED_MB))
  }
}

/** The window slides: each start counts for an hour, and a refusal says when enough of them have left it. */
async function checkLastHour(trx: Transaction<Database>, { userId, size, now }: UploadStart): Promise<void> {
  // Never more rows than UPLOAD_LIMIT_PER_HOUR: beyond that, starts are refused and not recorded.
  const starts = await trx
    .selectFrom('uploadStarts')
    .select(['size', 'startedAt'])
    .where('userId', '=', userId)
    .where('startedAt', '>', new Date(now.getTime() - QUOTA_WINDOW_MS).toISOString())
    .orderBy('startedAt')
    .execute()
  const secondsUntilGone = (index: number) => (Date.parse(starts[index].startedAt) + QUOTA_WINDOW_MS - now.getTime()) / 1000
  const refuse = (message: (wait: string) => string, index: number) => {
    const seconds = Math.max(1, Math.ceil(secondsUntilGone(index)))
    return new UploadRefusedError(429, message(minutesToWait(seconds)), seconds)
  }

  const perHour = env.UPLOAD_LIMIT_PER_HOUR
  if (starts.length >= perHour) {
    throw refuse((wait) => UPLOAD_REFUSED.tooManyThisHour(perHour, wait), starts.length - perHour)
  }
  const limitBytes = env.UPLOAD_LIMIT_MB_PER_HOUR * MB
  let bytes = starts.reduce((sum, s) => sum + s.size, 0) + size
  if (bytes <= limitBytes) return
  // The oldest starts leave the window first: this one fits once enough of them have gone.
  let index = 0
  while (bytes > limitBytes) bytes -= starts[index++].size
  throw refuse((wait) => UPLOAD_REFUSED.tooLargeThisHour(env.UPLOAD_LIMIT_MB_PER_HOUR, wait), index - 1)
}

/** Bytes still to come for every unfinished upload, of every user, are promised already. */
async function checkDisk(trx: Transaction<Database>, { size, freeBytes }: UploadStart): Promise<void> {
  const promised = await trx
    .selectFrom('uploads')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb('size', '-', eb.ref('received'))), eb.lit(0)).as('bytes'))
    .whereRef('received', '<', 'size')
    .executeTakeFirstOrThrow()
  if (freeBytes - Number(promised.bytes) - size < UPLOAD_DISK_RESERVE_BYTES) {
    throw new UploadRefusedError(507, UPLOAD_REFUSED.diskFull)
  }
}
