import { logger } from '../logger.server'
import { newStorageStem, storage, StorageFullError } from '../storage/index.server'
import { readFileHead } from './file-head.server'
import { loadSharp } from './load-sharp.server'
import { MediaRejectedError, STORAGE_FULL_MESSAGE } from './media-rejected'
import {
  IMAGE_DIMENSIONS_MESSAGE,
  IMAGE_PRESETS,
  INVALID_IMAGE_TYPE_MESSAGE,
  type ImageFormat,
  type ImagePreset,
  type ImagePresetName,
} from './image-presets'
import type { ImageVariant } from './image-types'

/** A decompression bomb declares huge dimensions in a tiny file; sharp refuses it before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000

/**
 * An upload: a Blob (a form's File) or a file on disk that an upload finished writing. A file on
 * disk is read by sharp from its path, never into memory as a whole.
 */
export type ImageSource = Blob | { path: string; size: number; name?: string }

export type ImageType = 'jpeg' | 'png' | 'gif' | 'webp'

export interface StoredImageFiles {
  width: number
  height: number
  variants: ImageVariant[]
}

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return signature.every((value, i) => bytes[offset + i] === value)
}

/** The image type from the first bytes of the file (its name and declared type are not trusted). */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return 'gif'
  }
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp'
  return null
}

function isBlob(source: ImageSource): source is Blob {
  return source instanceof Blob
}

function sourceName(source: ImageSource): string {
  return (isBlob(source) ? (source as Partial<File>).name : source.name) || 'The file'
}

async function readHead(source: ImageSource): Promise<Uint8Array> {
  if (isBlob(source)) return new Uint8Array(await source.slice(0, 16).arrayBuffer())
  return readFileHead(source.path, 16)
}

/** What sharp reads: the Blob's bytes (a form's file is in memory already) or the path. */
async function sharpInput(source: ImageSource): Promise<Buffer | string> {
  return isBlob(source) ? Buffer.from(await source.arrayBuffer()) : source.path
}

/** The size of the largest variant: within the preset's widths and height, cropped if it says so. */
function largestSize(preset: ImagePreset, width: number, height: number): { width: number; height: number } {
  const maxWidth = preset.widths[preset.widths.length - 1]
  if (preset.aspectRatio === null) {
    const scale = Math.min(1, maxWidth / width, preset.maxHeight / height)
    return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
  }
  const ratio = preset.aspectRatio
  // The largest box of that shape inside the image, then no larger than the preset allows.
  const cropWidth = width / height > ratio ? height * ratio : width
  const target = Math.min(cropWidth, maxWidth, preset.maxHeight * ratio)
  return { width: Math.max(1, Math.round(target)), height: Math.max(1, Math.round(target / ratio)) }
}

/** Decodes once: oriented, in sRGB, cropped and scaled to the largest variant, metadata gone. */
async function decodeUpload(source: ImageSource, preset: ImagePreset) {
  const type = detectImageType(await readHead(source))
  if (!type) throw new MediaRejectedError(INVALID_IMAGE_TYPE_MESSAGE)
  const input = await sharpInput(source)
  const sharp = await loadSharp()
  // Reading the header is cheap whatever it declares; the size check below gives the clearer message.
  const metadata = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => null)
  if (!metadata || metadata.format !== type) throw new MediaRejectedError(INVALID_IMAGE_TYPE_MESSAGE)
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) throw new MediaRejectedError(IMAGE_DIMENSIONS_MESSAGE)
  // Orientations 5 to 8 turn the picture a quarter: its shown width is the stored height.
  const turned = (metadata.orientation ?? 1) >= 5
  const size = largestSize(preset, turned ? metadata.height : metadata.width, turned ? metadata.width : metadata.height)
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ ...size, fit: 'cover', position: sharp.strategy.attention })
      .toColourspace('srgb')
      .raw()
      .timeout({ seconds: 30 })
      .toBuffer({ resolveWithObject: true })
  } catch (error) {
    logger.warn({ err: error }, 'image could not be decoded')
    throw new MediaRejectedError(INVALID_IMAGE_TYPE_MESSAGE)
  }
}

/** The widths to store for an image decoded at `width`: the preset's smaller ones, then its own. */
function variantWidths(preset: ImagePreset, width: number): number[] {
  return [...preset.widths.filter((w) => w < width), width]
}

async function encodeVariant(
  pixels: Buffer,
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 },
  width: number,
  format: ImageFormat,
): Promise<{ data: Buffer; width: number; height: number }> {
  const sharp = await loadSharp()
  const resized = sharp(pixels, { raw }).resize({
    width,
    height: Math.max(1, Math.round((raw.height * width) / raw.width)),
    fit: 'fill',
  })
  const encoded =
    format === 'webp'
      ? resized.webp({ quality: 78 })
      : resized.flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true })
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

const EXTENSION: Record<ImageFormat, string> = { webp: 'webp', jpeg: 'jpg' }
const CONTENT_TYPE: Record<ImageFormat, string> = { webp: 'image/webp', jpeg: 'image/jpeg' }

/**
 * Checks an upload by its content, re-encodes it as the preset says (formats, widths, crop,
 * never enlarged) and stores the results. The original is not kept. Throws MediaRejectedError
 * for the uploader; nothing stays stored when it throws.
 */
export async function storeImageFiles(source: ImageSource, presetName: ImagePresetName): Promise<StoredImageFiles> {
  const preset: ImagePreset = IMAGE_PRESETS[presetName]
  if (source.size > preset.maxBytes) throw new MediaRejectedError(preset.tooLargeMessage(sourceName(source)))
  const { data: pixels, info } = await decodeUpload(source, preset)
  const raw = { width: info.width, height: info.height, channels: info.channels }
  const stem = newStorageStem('images')
  const planned = variantWidths(preset, info.width).flatMap((width) =>
    preset.formats.map((format) => ({ width, format, key: `${stem}-${width}.${EXTENSION[format]}` })),
  )
  // Every write finishes (or fails) before anything is deleted: deleting while others still
  // write would leave their files behind.
  const results = await Promise.allSettled(
    planned.map(async ({ width, format, key }): Promise<ImageVariant> => {
      const encoded = await encodeVariant(pixels, raw, width, format)
      await storage.put(key, encoded.data, { contentType: CONTENT_TYPE[format] })
      return { key, format, width: encoded.width, height: encoded.height, bytes: encoded.data.length }
    }),
  )
  const failed = results.find((result) => result.status === 'rejected')
  if (failed) {
    await deleteStoredFiles(planned.map((p) => p.key))
    if (failed.reason instanceof StorageFullError) throw new MediaRejectedError(STORAGE_FULL_MESSAGE, 507)
    throw failed.reason
  }
  const variants = results.map((result) => (result as PromiseFulfilledResult<ImageVariant>).value)
  return { width: info.width, height: info.height, variants }
}

/** Removes stored files; a failure is logged, not raised (the record is already gone or never was). */
export async function deleteStoredFiles(keys: readonly string[]): Promise<void> {
  await Promise.all(
    keys.map((key) => storage.delete(key).catch((error) => logger.error({ err: error, key }, 'could not delete a stored file'))),
  )
}
