import type { ImageTable } from '../db-schema'
import type { Db } from '../db.server'
import { db as appDb, nowIso } from '../db.server'
import { storage } from '../storage/index.server'
import type { StoredImageFiles } from './image-pipeline.server'
import type { ImageVariant, ResponsiveImageData } from './image-types'

/** Social networks fetch preview images up to a few hundred KB. */
const SOCIAL_IMAGE_MAX_BYTES = 300_000
// WhatsApp and Facebook ignore smaller preview images; the site's default image is better then.
const SOCIAL_IMAGE_MIN_WIDTH = 200

/** One row of `images`: an uploaded picture, its description and its stored variants. */
export interface ImageRecord extends StoredImageFiles {
  id: string
  alt: string
  createdAt: string
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

export async function getImagesByIds(ids: readonly string[], executor: Db = appDb): Promise<Map<string, ImageRecord>> {
  if (ids.length === 0) return new Map()
  const rows = await executor
    .selectFrom('images')
    .select(['id', 'width', 'height', 'alt', 'variants', 'createdAt'])
    .where('id', 'in', [...ids])
    .execute()
  return new Map(rows.map((row) => [row.id, toImageRecord(row)]))
}

/** Loads the images of these rows at once; the function it returns finds a row's image. */
export async function loadImagesOf(rows: readonly { imageId: string | null }[]) {
  const images = await getImagesByIds(rows.flatMap((row) => (row.imageId ? [row.imageId] : [])))
  return (row: { imageId: string | null }) => (row.imageId ? images.get(row.imageId) : undefined)
}

/** Deletes the rows and returns their files' keys, to be removed once the transaction commits. */
export async function deleteImageRows(executor: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const rows = await executor
    .selectFrom('images')
    .select('variants')
    .where('id', 'in', [...ids])
    .execute()
  await executor
    .deleteFrom('images')
    .where('id', 'in', [...ids])
    .execute()
  return rows.flatMap((row) => (JSON.parse(row.variants) as ImageVariant[]).map((v) => v.key))
}

/** Every storage key an `images` row refers to (for the sweep of unreferenced files). */
export async function listReferencedImageKeys(executor: Db = appDb): Promise<Set<string>> {
  const keys = new Set<string>()
  for (const row of await executor.selectFrom('images').select('variants').execute()) {
    for (const variant of JSON.parse(row.variants) as ImageVariant[]) keys.add(variant.key)
  }
  return keys
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
export function pickSocialImage(image: ImageRecord): { path: string; width: number; height: number; bytes: number } | null {
  const candidate = image.variants
    .filter((v) => v.format === 'jpeg' && v.bytes < SOCIAL_IMAGE_MAX_BYTES && v.width >= SOCIAL_IMAGE_MIN_WIDTH)
    .sort((a, b) => b.width - a.width)[0]
  return candidate
    ? { path: storage.url(candidate.key), width: candidate.width, height: candidate.height, bytes: candidate.bytes }
    : null
}
