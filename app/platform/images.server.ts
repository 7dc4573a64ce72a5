import sharp from 'sharp'
import type { ImageTable } from './db-schema'
import type { Db } from './db.server'
import { db as appDb, nowIso } from './db.server'
import type { ImageVariant, ResponsiveImageData } from './image-types'
import { logger } from './logger.server'
import { newStorageStem, storage } from './storage/index.server'

export const INVALID_IMAGE_TYPE_MESSAGE = 'Invalid image type. Please upload a JPG, PNG, GIF, or WEBP file.'
export const IMAGE_DIMENSIONS_MESSAGE = 'Image dimensions are too large. Maximum is 40 megapixels.'

/** A decompression bomb declares huge dimensions in a tiny file; sharp refuses it before decoding. */
export const MAX_INPUT_PIXELS = 40_000_000
const VARIANT_WIDTHS = [400, 800, 1200]
/** Social networks fetch preview images up to a few hundred KB. */
const SOCIAL_IMAGE_MAX_BYTES = 300_000
// WhatsApp and Facebook ignore smaller preview images; the site's default image is better then.
const SOCIAL_IMAGE_MIN_WIDTH = 200

export type ImageType = 'jpeg' | 'png' | 'gif' | 'webp'

/** The upload was refused; `message` is meant for the person who uploaded it. */
export class ImageRejectedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImageRejectedError'
  }
}

export interface ImageLimits {
  maxBytes: number
  tooLargeMessage: string
}

export interface StoredImageFiles {
  width: number
  height: number
  variants: ImageVariant[]
}

export interface ImageRecord extends StoredImageFiles {
  id: string
  alt: string
  createdAt: string
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

function variantWidths(width: number): number[] {
  const largest = Math.min(width, VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1])
  return [...VARIANT_WIDTHS.filter((w) => w < largest), largest]
}

/** Decodes once: oriented, in sRGB, no larger than the largest variant, metadata gone. */
async function decodeUpload(bytes: Buffer) {
  const type = detectImageType(bytes)
  if (!type) throw new ImageRejectedError(INVALID_IMAGE_TYPE_MESSAGE)
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' } as const
  // Reading the header is cheap whatever it declares; the size check below gives the clearer message.
  const metadata = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => null)
  if (!metadata || metadata.format !== type) throw new ImageRejectedError(INVALID_IMAGE_TYPE_MESSAGE)
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) throw new ImageRejectedError(IMAGE_DIMENSIONS_MESSAGE)
  try {
    return await sharp(bytes, options)
      .rotate()
      .resize({ width: VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1], withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .timeout({ seconds: 30 })
      .toBuffer({ resolveWithObject: true })
  } catch (error) {
    logger.warn({ err: error }, 'image could not be decoded')
    throw new ImageRejectedError(INVALID_IMAGE_TYPE_MESSAGE)
  }
}

async function encodeVariant(
  pixels: Buffer,
  raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 },
  width: number,
  format: ImageVariant['format'],
): Promise<{ data: Buffer; width: number; height: number }> {
  const resized = sharp(pixels, { raw }).resize({ width })
  const encoded =
    format === 'webp'
      ? resized.webp({ quality: 78 })
      : resized.flatten({ background: '#ffffff' }).jpeg({ quality: 80, mozjpeg: true })
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

/**
 * Checks an upload by its content, re-encodes it (WebP and JPEG, several widths, never enlarged)
 * and stores the results. The original is not kept. Throws ImageRejectedError for the uploader;
 * nothing stays stored when it throws.
 */
export async function storeImageFiles(upload: Blob, limits: ImageLimits): Promise<StoredImageFiles> {
  if (upload.size > limits.maxBytes) throw new ImageRejectedError(limits.tooLargeMessage)
  const { data: pixels, info } = await decodeUpload(Buffer.from(await upload.arrayBuffer()))
  const raw = { width: info.width, height: info.height, channels: info.channels }
  const stem = newStorageStem('images')
  const planned = variantWidths(info.width).flatMap((width) =>
    (['webp', 'jpeg'] as const).map((format) => ({
      width,
      format,
      key: `${stem}-${width}.${format === 'webp' ? 'webp' : 'jpg'}`,
    })),
  )
  try {
    const variants = await Promise.all(
      planned.map(async ({ width, format, key }): Promise<ImageVariant> => {
        const encoded = await encodeVariant(pixels, raw, width, format)
        await storage.put(key, encoded.data, { contentType: format === 'webp' ? 'image/webp' : 'image/jpeg' })
        return { key, format, width: encoded.width, height: encoded.height, bytes: encoded.data.length }
      }),
    )
    return { width: info.width, height: info.height, variants }
  } catch (error) {
    await deleteImageFiles(planned)
    throw error
  }
}

/**
 * Stores the image's files, then runs `save` (which records them, usually in a transaction).
 * If `save` fails, the files are removed again.
 */
export async function withStoredImage<T>(
  upload: Blob,
  limits: ImageLimits,
  save: (files: StoredImageFiles) => Promise<T>,
): Promise<T> {
  const files = await storeImageFiles(upload, limits)
  try {
    return await save(files)
  } catch (error) {
    await deleteImageFiles(files.variants)
    throw error
  }
}

/** Removes stored files; a failure is logged, not raised (the record is already gone or never was). */
export async function deleteImageFiles(variants: Pick<ImageVariant, 'key'>[]): Promise<void> {
  await Promise.all(
    variants.map(({ key }) =>
      storage.delete(key).catch((error) => logger.error({ err: error, key }, 'could not delete an image file')),
    ),
  )
}

function toImageRecord(row: ImageTable): ImageRecord {
  return { ...row, variants: JSON.parse(row.variants) as ImageVariant[] }
}

export async function insertImage(executor: Db, files: StoredImageFiles, alt: string): Promise<ImageRecord> {
  const row = {
    id: crypto.randomUUID(),
    width: files.width,
    height: files.height,
    alt,
    variants: JSON.stringify(files.variants),
    createdAt: nowIso(),
  }
  await executor.insertInto('images').values(row).execute()
  return toImageRecord(row)
}

export async function getImagesByIds(ids: string[], executor: Db = appDb): Promise<Map<string, ImageRecord>> {
  if (ids.length === 0) return new Map()
  const rows = await executor
    .selectFrom('images')
    .select(['id', 'width', 'height', 'alt', 'variants', 'createdAt'])
    .where('id', 'in', ids)
    .execute()
  return new Map(rows.map((row) => [row.id, toImageRecord(row)]))
}

/** Deletes the record and returns its files, to be removed once the surrounding transaction commits. */
export async function deleteImageRecord(executor: Db, id: string): Promise<ImageVariant[]> {
  const row = await executor.selectFrom('images').select('variants').where('id', '=', id).executeTakeFirst()
  if (!row) return []
  await executor.deleteFrom('images').where('id', '=', id).execute()
  return JSON.parse(row.variants) as ImageVariant[]
}

function srcSet(variants: ImageVariant[]): string {
  return variants.map((v) => `${storage.url(v.key)} ${v.width}w`).join(', ')
}

export function toResponsiveImage(image: ImageRecord): ResponsiveImageData {
  const jpeg = image.variants.filter((v) => v.format === 'jpeg').sort((a, b) => a.width - b.width)
  const webp = image.variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width)
  const fallback = jpeg.find((v) => v.width >= 800) ?? jpeg[jpeg.length - 1]
  return {
    width: image.width,
    height: image.height,
    alt: image.alt,
    src: storage.url(fallback.key),
    jpegSrcSet: srcSet(jpeg),
    webpSrcSet: srcSet(webp),
  }
}

/** The largest JPEG variant small enough for link previews (path only; callers make it absolute). */
export function pickSocialImage(
  image: ImageRecord,
): { path: string; width: number; height: number; bytes: number } | null {
  const candidate = image.variants
    .filter((v) => v.format === 'jpeg' && v.bytes < SOCIAL_IMAGE_MAX_BYTES && v.width >= SOCIAL_IMAGE_MIN_WIDTH)
    .sort((a, b) => b.width - a.width)[0]
  return candidate
    ? { path: storage.url(candidate.key), width: candidate.width, height: candidate.height, bytes: candidate.bytes }
    : null
}
