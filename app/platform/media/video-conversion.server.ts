import fs from 'node:fs'
import type { VideoTable } from '../db-schema'
import { db } from '../db.server'
import { createLeasedQueue, describeError, LeaseLostError, type Lease } from '../leased-queue.server'
import { logger } from '../logger.server'
import { contentTypeForKey, newStorageStem, storage } from '../storage/index.server'
import { convertToWebMp4, extractFrame, probeMedia, ToolFailedError, ToolMissingError } from './ffmpeg.server'
import { loadSharp } from './load-sharp.server'
import { withMediaChange } from './media-change.server'
import { removeTempFile, tempFile } from '../temp-files.server'
import { demuxerFor, type VideoFormat } from './video-files.server'
import { fetchOriginal, removeOrphanOriginals, removeOriginal } from './video-originals.server'

/** The conversion job: the videos table is its queue. */

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
}

export const FFMPEG_MISSING_TEXT =
  'Shown as uploaded, without conversion: the video converter (ffmpeg) is not installed on the server. ' +
  'It may play in fewer browsers and may still carry metadata such as where it was recorded. Ask whoever ' +
  'runs the site to install it, then upload the video again.'

export interface VideoRunSummary {
  ready: number
  failed: number
  /** The pass took a full batch, so more videos may be waiting. */
  more: boolean
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

/** The original is gone (a backup restored without it, say): no attempt can succeed. */
class OriginalMissingError extends Error {
  constructor() {
    super('the uploaded file is missing on the server')
  }
}

/**
 * Converts waiting videos in the background: on request, and every minute; started with the
 * server. Stopping kills the conversion under way (ffmpeg is killed and the video given back, so
 * the next start converts it again). ffmpeg dies with its process, so a restarted process takes
 * over at once the conversions of its dead predecessors on this machine. The original is read
 * from where video-originals keeps it and the result stored, so with S3 any process can convert
 * any video; its local files are temporary.
 */
const conversions = createLeasedQueue({
  name: 'video conversion',
  table: 'videos',
  policy: VIDEO_POLICY,
  isWaiting: (eb) => eb('status', '=', 'processing'),
  work: convertVideo,
  failed: (error, _video, giveUp) => {
    const reason = describeError(error, 300)
    return giveUp
      ? {
          status: 'failed',
          statusText: `The video could not be converted (${reason}). Delete it and upload it again, perhaps in another format.`,
        }
      : { status: 'processing', statusText: `Conversion failed (${reason}); trying again shortly.` }
  },
  // ffmpeg gives the same answer every time; storage and database trouble may pass.
  isHopeless: (error) => error instanceof ToolFailedError || error instanceof OriginalMissingError,
  onGiveUp: (video) => removeOriginal(video.id, video.originalFormat),
  takeOverLeasesOfGoneProcesses: true,
  onStart: () => removeOrphanOriginals(new Date(Date.now() - 24 * 60 * 60_000)),
})

/** One pass over the videos waiting for conversion; several processes may run passes at once. */
export async function processDueVideos(options: { now?: Date; signal?: AbortSignal } = {}): Promise<VideoRunSummary> {
  const { finished, gaveUp, more } = await conversions.runDue(options)
  return { ready: finished, failed: gaveUp, more }
}

export const requestVideoRun = conversions.request
export const videoWorkIdle = conversions.idle
export const startVideoWorker = conversions.start
export const stopVideoWorker = conversions.stop

async function convertVideo(video: VideoTable, lease: Lease<'videos'>, signal?: AbortSignal): Promise<void> {
  const original = await fetchOriginal(video.id, video.originalFormat)
  if (!original) throw new OriginalMissingError()
  const output = await tempFile(`${video.id}.converted.mp4`)
  try {
    const converted = await convert(video.id, original.path, video.originalFormat, output, signal)
    await recordConverted(lease, converted)
  } catch (error) {
    // Deleted meanwhile: its original is nobody's (a worker that took over keeps it).
    if (
      error instanceof LeaseLostError &&
      !(await db.selectFrom('videos').select('id').where('id', '=', video.id).executeTakeFirst())
    ) {
      await removeOriginal(video.id, video.originalFormat)
    }
    throw error
  } finally {
    await Promise.all([original.release(), removeTempFile(output)])
  }
  // The original may carry the place it was recorded: it goes once the converted file is in use.
  await removeOriginal(video.id, video.originalFormat)
}

/**
 * Stores the converted video and its poster (the `poster` image preset) and records them as one
 * media change: if the record cannot be updated, the stored files are deleted again.
 */
async function recordConverted(lease: Lease<'videos'>, converted: Converted): Promise<void> {
  await withMediaChange(async (media) => {
    const videoKey = `${newStorageStem('videos')}.${converted.format}`
    await storage.put(videoKey, fs.createReadStream(converted.file), { contentType: contentTypeForKey(videoKey) })
    media.filesStored([videoKey])
    const poster = await media.storeImage(new Blob([new Uint8Array(converted.posterFrame)]), 'poster')
    await media.transaction(db, async (trx) => {
      const posterImageId = await media.attach(trx, poster, '')
      await lease.finish(trx, {
        status: 'ready',
        statusText: converted.statusText,
        videoKey,
        posterImageId,
        width: converted.width,
        height: converted.height,
        durationMs: converted.durationMs,
      })
    })
  })
}

/**
 * Converts the original on local disk into `output`. Without ffmpeg, the original itself is kept
 * with a neutral poster, and the admin is told why.
 */
async function convert(
  id: string,
  original: string,
  format: VideoFormat,
  output: string,
  signal?: AbortSignal,
): Promise<Converted> {
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
