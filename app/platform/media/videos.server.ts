import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ExpressionBuilder } from 'kysely'
import type { Database, VideoTable } from '../db-schema'
import { db as appDb, nowIso, type Db } from '../db.server'
import { env } from '../env.server'
import { createBackgroundWorker } from '../background-worker.server'
import { isLeaseOfGoneProcess, newLeaseToken } from '../lease-holder.server'
import { logger } from '../logger.server'
import { markContentChanged } from '../content-version.server'
import { contentTypeForKey, newStorageStem, storage } from '../storage/index.server'
import { convertToWebMp4, extractFrame, probeMedia, ToolFailedError, ToolMissingError, type Demuxer } from './ffmpeg.server'
import type { ResponsiveImageData } from './image-types'
import { readFileHead } from './file-head.server'
import { getImagesByIds, toResponsiveImage } from './images.server'
import { loadSharp } from './load-sharp.server'
import { withMediaChange, type MediaChange } from './media-change.server'
import { MediaRejectedError } from './media-rejected'
import type { StoredFileOwner } from './unreferenced-files.server'
import { discardUpload, type FinishedUpload } from './uploads.server'

export const VIDEO_POLICY = {
  /** Attempts for passing trouble (storage, database); a file ffmpeg cannot read fails at once. */
  maxAttempts: 3,
  firstRetryMs: 60_000,
  convertTimeoutMs: 15 * 60_000,
  /** Longer than a conversion may take, so a live worker never loses its claim. */
  leaseMs: 20 * 60_000,
  /** Conversions are heavy: a few at a time per pass. */
  batchSize: 2,
  timerMs: 60_000,
  /** Frame size limit, as for images: a header may claim anything. */
  maxPixels: 40_000_000,
}

export type VideoFormat = VideoTable['originalFormat']
export type VideoStatus = VideoTable['status']

/** The old site's message for a file that is not what it claims to be. */
export function invalidVideoMessage(filename: string): string {
  return `${filename} is not a valid image or video type`
}

export const PROCESSING_TEXT = 'Converting for the web: the video appears on the site once it is ready.'
export const FFMPEG_MISSING_TEXT =
  'Shown as uploaded, without conversion: the video converter (ffmpeg) is not installed on the server. ' +
  'It may play in fewer browsers and may still carry metadata such as where it was recorded. Ask whoever ' +
  'runs the site to install it, then upload the video again.'

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

/** A checked upload on its way into the videos table (see withNewVideo). */
export interface NewVideo {
  id: string
  filename: string
  format: VideoFormat
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.subarray(start, end)).toString('latin1')
}

// HEIF and AVIF images share the MP4 container; they are images, not videos.
const IMAGE_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'])

/** The container from the first bytes of the file (its name and declared type are not trusted). */
export function detectVideoFormat(bytes: Uint8Array): VideoFormat | null {
  const box = ascii(bytes, 4, 8)
  if (box === 'ftyp') {
    const brand = ascii(bytes, 8, 12)
    if (IMAGE_BRANDS.has(brand)) return null
    return brand === 'qt  ' ? 'mov' : 'mp4'
  }
  // Older QuickTime files start straight with one of these atoms.
  if (['moov', 'mdat', 'wide'].includes(box)) return 'mov'
  // EBML, with the WebM document type in its header (plain Matroska is not offered).
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return ascii(bytes, 4, 64).includes('webm') ? 'webm' : null
  }
  return null
}

function demuxerFor(format: VideoFormat): Demuxer {
  return format === 'webm' ? 'matroska' : 'mov'
}

/** Private working files (originals waiting for conversion): never under the public uploads. */
function workDir(): string {
  return path.join(env.dataDir, 'video-work')
}

function originalPath(id: string, format: VideoFormat): string {
  return path.join(workDir(), `${id}.original.${format}`)
}

function convertedPath(id: string): string {
  return path.join(workDir(), `${id}.converted.mp4`)
}

/**
 * Checks that a file is an MP4, WebM or QuickTime video by its content: first bytes, then the
 * container and streams (ffprobe). Without ffprobe the first bytes decide. Throws
 * MediaRejectedError with the old site's message.
 */
export async function checkVideoFile(file: string, filename: string): Promise<VideoFormat> {
  const refused = new MediaRejectedError(invalidVideoMessage(filename))
  const format = detectVideoFormat(await readFileHead(file))
  if (!format) throw refused
  let probe
  try {
    probe = await probeMedia(file, demuxerFor(format))
  } catch (error) {
    if (error instanceof ToolMissingError) {
      logger.warn('ffprobe is not installed: videos are checked by their first bytes only')
      return format
    }
    if (error instanceof ToolFailedError) throw refused
    throw error
  }
  const expected = format === 'webm' ? 'webm' : 'mp4'
  const { video, durationMs } = probe
  if (!probe.formatName.split(',').includes(expected) || !video || !durationMs) throw refused
  if (video.width * video.height > VIDEO_POLICY.maxPixels) throw refused
  return format
}

/**
 * Takes a finished upload as a new video: checks it (MediaRejectedError for the form, and the
 * upload is discarded), moves it
 * to the private work folder and runs `save`, which records it with insertVideo (usually in a
 * transaction with the item that shows it). If `save` fails, the upload is put back, so the form
 * can be sent again. The conversion starts in the background.
 */
export async function withNewVideo<T>(upload: FinishedUpload, save: (video: NewVideo) => Promise<T>): Promise<T> {
  let format: VideoFormat
  try {
    format = await checkVideoFile(upload.path, upload.filename)
  } catch (error) {
    // Sending it again cannot help: nothing of it is kept.
    if (error instanceof MediaRejectedError) await discardUpload(upload.id)
    throw error
  }
  const video: NewVideo = { id: crypto.randomUUID(), filename: upload.filename, format }
  const original = originalPath(video.id, format)
  await fs.promises.mkdir(workDir(), { recursive: true })
  await fs.promises.rename(upload.path, original)
  // Its age now counts from here (see removeOrphanWorkFiles).
  const now = new Date()
  await fs.promises.utimes(original, now, now)
  let result: T
  try {
    result = await save(video)
  } catch (error) {
    await fs.promises.rename(original, upload.path)
    throw error
  }
  await discardUpload(upload.id)
  requestVideoRun()
  return result
}

/**
 * Records a video from a file that stays where it is (demo content), inside the caller's
 * transaction: a copy goes to the work folder and is converted like an upload. If the caller's
 * transaction is rolled back later, the start-up sweep of work files removes the copy.
 */
export async function insertVideoCopy(executor: Db, file: string, filename: string): Promise<VideoRecord> {
  const video: NewVideo = { id: crypto.randomUUID(), filename, format: await checkVideoFile(file, filename) }
  const copy = originalPath(video.id, video.format)
  await fs.promises.mkdir(workDir(), { recursive: true })
  await fs.promises.copyFile(file, copy)
  try {
    const record = await insertVideo(executor, video)
    requestVideoRun()
    return record
  } catch (error) {
    await fs.promises.rm(copy, { force: true })
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
 * files once the change has committed, and the private working files of a conversion that may
 * still be under way (the worker notices the row is gone).
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
  media.afterCommit(() => removeWorkFiles(id, row.originalFormat))
}

/** The stored files of `videos` rows (their posters are `images` rows), for the sweep of unreferenced files. */
export const videoFiles: StoredFileOwner = {
  prefix: 'videos/',
  async listReferencedKeys() {
    const rows = await appDb.selectFrom('videos').select('videoKey').where('videoKey', 'is not', null).execute()
    return new Set(rows.map((row) => row.videoKey!))
  },
}

// ---------------------------------------------------------------------------------------------
// The conversion job: the videos table is its queue, claimed with leases like the contact outbox.

export interface VideoRunSummary {
  ready: number
  failed: number
  /** The pass took a full batch, so more videos may be waiting. */
  more: boolean
}

function retryDelayMs(attempts: number): number {
  return VIDEO_POLICY.firstRetryMs * 2 ** Math.max(0, attempts - 1)
}

/**
 * Due: waiting and its time has come, or claimed by a worker whose lease ran out (it crashed or
 * was stopped) or whose process is known to be gone (`goneLeases`).
 */
function isDue(now: string, goneLeases: string[]) {
  return (eb: ExpressionBuilder<Database, 'videos'>) =>
    eb.and([
      eb('status', '=', 'processing'),
      eb('nextAttemptAt', '<=', now),
      eb.or([
        eb('leaseExpiresAt', 'is', null),
        eb('leaseExpiresAt', '<=', now),
        ...(goneLeases.length > 0 ? [eb('leaseToken', 'in', goneLeases)] : []),
      ]),
    ])
}

/**
 * The running leases of processes on this machine that were killed or crashed mid-conversion
 * (their ffmpeg died with them): a restarted server takes its own jobs over at once instead of
 * leaving them for the 20 minutes of their lease.
 */
async function leasesOfGoneProcesses(now: string): Promise<string[]> {
  const rows = await appDb
    .selectFrom('videos')
    .select('leaseToken')
    .where('status', '=', 'processing')
    .where('leaseExpiresAt', '>', now)
    .execute()
  return rows.flatMap(({ leaseToken }) => (leaseToken && isLeaseOfGoneProcess(leaseToken) ? [leaseToken] : []))
}

/** One pass over the videos waiting for conversion; several processes may run passes at once. */
export async function processDueVideos(options: { now?: Date; signal?: AbortSignal } = {}): Promise<VideoRunSummary> {
  const now = options.now ?? new Date()
  const goneLeases = await leasesOfGoneProcesses(now.toISOString())
  const candidates = await appDb
    .selectFrom('videos')
    .select('id')
    .where(isDue(now.toISOString(), goneLeases))
    .orderBy('nextAttemptAt')
    .limit(VIDEO_POLICY.batchSize)
    .execute()
  const summary: VideoRunSummary = { ready: 0, failed: 0, more: candidates.length === VIDEO_POLICY.batchSize }
  for (const { id } of candidates) {
    if (options.signal?.aborted) break
    const outcome = await processOne(id, now, goneLeases, options.signal)
    if (outcome === 'ready' || outcome === 'failed') summary[outcome]++
  }
  // A ready video appears in the gallery: cached pages are made anew.
  if (summary.ready > 0) await markContentChanged()
  return summary
}

/** A conversion's result on local disk, not yet stored or recorded. */
interface Converted {
  file: string
  format: VideoFormat
  posterFrame: Buffer
  width: number | null
  height: number | null
  durationMs: number | null
  statusText: string | null
}

/** The record of this video was deleted, or another worker took it over, while we converted it. */
class ClaimLostError extends Error {}

/** The original is gone (a backup restored without it, say): no attempt can succeed. */
class OriginalMissingError extends Error {
  constructor() {
    super('the uploaded file is missing on the server')
  }
}

async function processOne(
  id: string,
  now: Date,
  goneLeases: string[],
  signal?: AbortSignal,
): Promise<'ready' | 'failed' | 'retry' | 'skipped'> {
  const nowText = now.toISOString()
  const leaseToken = newLeaseToken()
  const claimed = await appDb
    .updateTable('videos')
    .set({
      leaseToken,
      leaseExpiresAt: new Date(now.getTime() + VIDEO_POLICY.leaseMs).toISOString(),
      attempts: (eb) => eb('attempts', '+', 1),
      updatedAt: nowText,
    })
    .where('id', '=', id)
    .where(isDue(nowText, goneLeases))
    .returning(['originalFormat', 'attempts'])
    .executeTakeFirst()
  if (!claimed) return 'skipped' // another worker got there first

  const original = originalPath(id, claimed.originalFormat)
  try {
    if (!fs.existsSync(original)) throw new OriginalMissingError()
    await recordConverted(id, leaseToken, await convert(id, original, claimed.originalFormat, signal))
    // The original may carry the place it was recorded: it goes once the converted file is in use.
    await removeWorkFiles(id, claimed.originalFormat)
    return 'ready'
  } catch (error) {
    if (error instanceof ClaimLostError) {
      // Deleted meanwhile: what the conversion wrote is nobody's (a worker that took over keeps its files).
      const exists = await appDb.selectFrom('videos').select('id').where('id', '=', id).executeTakeFirst()
      if (!exists) await removeWorkFiles(id, claimed.originalFormat)
      return 'skipped'
    }
    if (signal?.aborted) {
      // Stopped for a shutdown: free the claim and give the attempt back, the next start carries on.
      await appDb
        .updateTable('videos')
        .set({ leaseToken: null, leaseExpiresAt: null, attempts: (eb) => eb('attempts', '-', 1) })
        .where('id', '=', id)
        .where('leaseToken', '=', leaseToken)
        .execute()
      return 'skipped'
    }
    return recordFailure(id, leaseToken, claimed, now, error)
  }
}

/**
 * Stores the converted video and its poster (the `poster` image preset) and records them as one
 * media change: if the record cannot be updated, the stored files are deleted again.
 */
async function recordConverted(id: string, leaseToken: string, converted: Converted): Promise<void> {
  await withMediaChange(async (media) => {
    const videoKey = `${newStorageStem('videos')}.${converted.format}`
    await storage.put(videoKey, fs.createReadStream(converted.file), { contentType: contentTypeForKey(videoKey) })
    media.filesStored([videoKey])
    const poster = await media.storeImage(new Blob([new Uint8Array(converted.posterFrame)]), 'poster')
    await media.transaction(appDb, async (trx) => {
      const posterImageId = await media.attach(trx, poster, '')
      const updated = await trx
        .updateTable('videos')
        .set({
          status: 'ready',
          statusText: converted.statusText,
          videoKey,
          posterImageId,
          width: converted.width,
          height: converted.height,
          durationMs: converted.durationMs,
          nextAttemptAt: null,
          leaseToken: null,
          leaseExpiresAt: null,
          updatedAt: nowIso(),
        })
        .where('id', '=', id)
        .where('leaseToken', '=', leaseToken)
        .executeTakeFirst()
      if (Number(updated.numUpdatedRows) === 0) throw new ClaimLostError()
    })
  })
}

async function recordFailure(
  id: string,
  leaseToken: string,
  claimed: { originalFormat: VideoFormat; attempts: number },
  now: Date,
  error: unknown,
): Promise<'failed' | 'retry'> {
  const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300)
  // ffmpeg gives the same answer every time; storage and database trouble may pass.
  const giveUp =
    error instanceof ToolFailedError || error instanceof OriginalMissingError || claimed.attempts >= VIDEO_POLICY.maxAttempts
  logger.warn({ videoId: id, attempts: claimed.attempts, giveUp, err: reason }, 'video conversion failed')
  await appDb
    .updateTable('videos')
    .set({
      status: giveUp ? 'failed' : 'processing',
      statusText: giveUp
        ? `The video could not be converted (${reason}). Delete it and upload it again, perhaps in another format.`
        : `Conversion failed (${reason}); trying again shortly.`,
      nextAttemptAt: giveUp ? null : new Date(now.getTime() + retryDelayMs(claimed.attempts)).toISOString(),
      leaseToken: null,
      leaseExpiresAt: null,
      updatedAt: nowIso(),
    })
    .where('id', '=', id)
    .where('leaseToken', '=', leaseToken)
    .execute()
  if (giveUp) await removeWorkFiles(id, claimed.originalFormat)
  return giveUp ? 'failed' : 'retry'
}

async function removeWorkFiles(id: string, format: VideoFormat): Promise<void> {
  await Promise.all([originalPath(id, format), convertedPath(id)].map((file) => fs.promises.rm(file, { force: true })))
}

/**
 * Converts the original on local disk. Without ffmpeg, the original itself is kept with a
 * neutral poster, and the admin is told why.
 */
async function convert(id: string, original: string, format: VideoFormat, signal?: AbortSignal): Promise<Converted> {
  const output = convertedPath(id)
  try {
    await convertToWebMp4(original, demuxerFor(format), output, { signal, timeoutMs: VIDEO_POLICY.convertTimeoutMs })
  } catch (error) {
    if (!(error instanceof ToolMissingError)) throw error
    logger.warn({ videoId: id }, 'ffmpeg is not installed: the video is shown as uploaded')
    const probe = await probeMedia(original, demuxerFor(format), signal).catch(() => null)
    return conversionResult(original, format, await neutralPoster(), probe, FFMPEG_MISSING_TEXT)
  }
  const probe = await probeMedia(output, 'mov', signal)
  const frame = await extractFrame(output, Math.min(1000, (probe.durationMs ?? 0) / 2), signal)
  return conversionResult(output, 'mp4', frame, probe, null)
}

function conversionResult(
  file: string,
  format: VideoFormat,
  posterFrame: Buffer,
  probe: Awaited<ReturnType<typeof probeMedia>> | null,
  statusText: string | null,
): Converted {
  return {
    file,
    format,
    posterFrame,
    width: probe?.video?.width ?? null,
    height: probe?.video?.height ?? null,
    durationMs: probe?.durationMs ?? null,
    statusText,
  }
}

/** A plain dark frame with a play symbol, for videos without a frame of their own. */
async function neutralPoster(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720">
    <rect width="1280" height="720" fill="#2d3338"/>
    <circle cx="640" cy="360" r="110" fill="#4a535b"/>
    <path d="M600 290 L720 360 L600 430 Z" fill="#d9dee2"/>
  </svg>`
  const sharp = await loadSharp()
  return sharp(Buffer.from(svg)).png().toBuffer()
}

/** Work files whose video is gone (a crash between moving an upload and recording it). */
async function removeOrphanWorkFiles(olderThan: Date): Promise<number> {
  const names = await fs.promises.readdir(workDir()).catch(() => [] as string[])
  const ids = [...new Set(names.map((name) => name.split('.')[0]))]
  if (ids.length === 0) return 0
  const known = new Set(
    (await appDb.selectFrom('videos').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
  )
  let removed = 0
  for (const name of names) {
    if (known.has(name.split('.')[0])) continue
    const file = path.join(workDir(), name)
    const stats = await fs.promises.stat(file).catch(() => null)
    if (stats && stats.mtime < olderThan) {
      await fs.promises.rm(file, { force: true })
      removed++
    }
  }
  return removed
}

/**
 * Converts waiting videos in the background: on request, and every minute; started with the
 * server. Stopping kills the conversion under way (ffmpeg is killed and the video's claim freed,
 * so the next start converts it again).
 */
const videoWorker = createBackgroundWorker({
  name: 'video conversion',
  pass: processDueVideos,
  intervalMs: VIDEO_POLICY.timerMs,
  onStart: () => removeOrphanWorkFiles(new Date(Date.now() - 24 * 60 * 60_000)),
})

export const requestVideoRun = videoWorker.request
export const videoWorkIdle = videoWorker.idle
export const startVideoWorker = videoWorker.start
export const stopVideoWorker = videoWorker.stop
