import crypto from 'node:crypto'
import type { VideoTable } from '../db-schema'
import { db as appDb, nowIso, type Db } from '../db.server'
import { contentTypeForKey, storage } from '../storage/index.server'
import type { ResponsiveImageData } from './image-types'
import { getImagesByIds, toResponsiveImage } from './images.server'
import type { MediaChange } from './media-change.server'
import type { StoredFileOwner } from './unreferenced-files.server'
import { requestVideoRun } from './video-conversion.server'
import { checkVideoFile, type VideoFormat } from './video-files.server'
import { keepOriginal, removeOriginal } from './video-originals.server'

/** The records of videos: added from uploads, read by pages, deleted with their items. */

export type VideoStatus = VideoTable['status']

export const PROCESSING_TEXT = 'Converting for the web: the video appears on the site once it is ready.'

/** A video as pages and admin screens see it. */
export interface VideoRecord {
  id: string
  status: VideoStatus
  /** For the admin: what is happening, why it failed, or why it is shown unconverted. */
  statusText: string | null
  filename: string
  src: string | null
  contentType: string | null
  poster: ResponsiveImageData | null
  width: number | null
  height: number | null
  durationMs: number | null
  createdAt: string
}

/** A video whose files are ready: the only kind a public page may show. */
export type ReadyVideo = VideoRecord & { status: 'ready'; src: string; contentType: string; poster: ResponsiveImageData }

export function isVideoReady(video: VideoRecord): video is ReadyVideo {
  return video.status === 'ready' && video.src !== null && video.poster !== null
}

/** A checked upload on its way into the videos table (see MediaChange.stageVideo). */
export interface NewVideo {
  id: string
  filename: string
  format: VideoFormat
}

/**
 * Records a video from a file that stays where it is (demo content), inside the caller's
 * transaction: a copy is kept as its original and converted like an upload. If the caller's
 * transaction is rolled back later, the start-up sweep of originals removes the copy.
 */
export async function insertVideoCopy(executor: Db, file: string, filename: string): Promise<VideoRecord> {
  const video: NewVideo = { id: crypto.randomUUID(), filename, format: await checkVideoFile(file, filename) }
  await keepOriginal(video.id, video.format, file, 'copy')
  try {
    const record = await insertVideo(executor, video)
    requestVideoRun()
    return record
  } catch (error) {
    await removeOriginal(video.id, video.format)
    throw error
  }
}

/** Records a new video, to be converted; run it inside the caller's transaction. */
export async function insertVideo(executor: Db, video: NewVideo): Promise<VideoRecord> {
  const now = nowIso()
  const row = {
    id: video.id,
    status: 'processing' as const,
    statusText: null,
    filename: video.filename,
    originalFormat: video.format,
    videoKey: null,
    posterImageId: null,
    width: null,
    height: null,
    durationMs: null,
    attempts: 0,
    nextAttemptAt: now,
    leaseToken: null,
    leaseExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  }
  await executor.insertInto('videos').values(row).execute()
  return toVideoRecord(row, null)
}

type VideoRow = Pick<
  VideoTable,
  'id' | 'status' | 'statusText' | 'filename' | 'videoKey' | 'posterImageId' | 'width' | 'height' | 'durationMs' | 'createdAt'
>

function toVideoRecord(row: VideoRow, poster: ResponsiveImageData | null): VideoRecord {
  return {
    id: row.id,
    status: row.status,
    statusText: row.statusText ?? (row.status === 'processing' ? PROCESSING_TEXT : null),
    filename: row.filename,
    src: row.videoKey ? storage.url(row.videoKey) : null,
    contentType: row.videoKey ? contentTypeForKey(row.videoKey) : null,
    poster,
    width: row.width,
    height: row.height,
    durationMs: row.durationMs,
    createdAt: row.createdAt,
  }
}

/** The videos with these ids, whatever their state; pages keep the ready ones (isVideoReady). */
export async function getVideosByIds(ids: string[], executor: Db = appDb): Promise<Map<string, VideoRecord>> {
  if (ids.length === 0) return new Map()
  const rows = await executor
    .selectFrom('videos')
    .select(['id', 'status', 'statusText', 'filename', 'videoKey', 'posterImageId', 'width', 'height', 'durationMs', 'createdAt'])
    .where('id', 'in', ids)
    .execute()
  const posters = await getImagesByIds(
    rows.flatMap((r) => (r.posterImageId ? [r.posterImageId] : [])),
    executor,
  )
  return new Map(
    rows.map((row) => {
      const poster = row.posterImageId ? posters.get(row.posterImageId) : undefined
      return [row.id, toVideoRecord(row, poster ? toResponsiveImage(poster) : null)]
    }),
  )
}

/**
 * Deletes a video inside the caller's media change: its row and its poster's now, its stored
 * files once the change has committed, and the original of a conversion that may still be under
 * way (the worker notices the row is gone).
 */
export async function removeVideo(media: MediaChange, trx: Db, id: string): Promise<void> {
  const row = await trx
    .selectFrom('videos')
    .select(['videoKey', 'posterImageId', 'originalFormat'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return
  await trx.deleteFrom('videos').where('id', '=', id).execute()
  await media.remove(trx, row.posterImageId)
  if (row.videoKey) media.releaseFilesAfterCommit([row.videoKey])
  media.afterCommit(() => removeOriginal(id, row.originalFormat))
}

/** The stored files of `videos` rows (their posters are `images` rows), for the sweep of unreferenced files. */
export const videoFiles: StoredFileOwner = {
  prefix: 'videos/',
  async listReferencedKeys() {
    const rows = await appDb.selectFrom('videos').select('videoKey').where('videoKey', 'is not', null).execute()
    return new Set(rows.map((row) => row.videoKey!))
  },
}
