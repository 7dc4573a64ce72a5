import type { VideoTable } from '../db-schema'
import { logger } from '../logger.server'
import { probeMedia, ToolFailedError, ToolMissingError, type Demuxer } from './ffmpeg.server'
import { readFileHead } from './file-head.server'
import { MediaRejectedError } from './media-rejected'

/** The checks of a video file. */

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
