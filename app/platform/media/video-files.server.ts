import fs from 'node:fs'
import path from 'node:path'
import type { VideoTable } from '../db-schema'
import { db } from '../db.server'
import { env } from '../env.server'
import { logger } from '../logger.server'
import { probeMedia, ToolFailedError, ToolMissingError, type Demuxer } from './ffmpeg.server'
import { readFileHead } from './file-head.server'
import { MediaRejectedError } from './media-rejected'

/** The checks of a video file, and the private working files of its conversion. */

export type VideoFormat = VideoTable['originalFormat']

/** Frame size limit, as for images: a header may claim anything. */
export const VIDEO_MAX_PIXELS = 40_000_000

/** The old site's message for a file that is not what it claims to be. */
export function invalidVideoMessage(filename: string): string {
  return `${filename} is not a valid image or video type`
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

export function demuxerFor(format: VideoFormat): Demuxer {
  return format === 'webm' ? 'matroska' : 'mov'
}

/** Private working files (originals waiting for conversion): never under the public uploads. */
export function workDir(): string {
  return path.join(env.dataDir, 'video-work')
}

export function originalPath(id: string, format: VideoFormat): string {
  return path.join(workDir(), `${id}.original.${format}`)
}

export function convertedPath(id: string): string {
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
  if (video.width * video.height > VIDEO_MAX_PIXELS) throw refused
  return format
}

export async function removeWorkFiles(id: string, format: VideoFormat): Promise<void> {
  await Promise.all([originalPath(id, format), convertedPath(id)].map((file) => fs.promises.rm(file, { force: true })))
}

/** Work files whose video is gone (a crash between moving an upload and recording it). */
export async function removeOrphanWorkFiles(olderThan: Date): Promise<number> {
  const names = await fs.promises.readdir(workDir()).catch(() => [] as string[])
  const ids = [...new Set(names.map((name) => name.split('.')[0]))]
  if (ids.length === 0) return 0
  const known = new Set((await db.selectFrom('videos').select('id').where('id', 'in', ids).execute()).map((r) => r.id))
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
