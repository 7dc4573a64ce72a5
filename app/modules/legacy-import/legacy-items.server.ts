/**
 * One document of the old site into its module: each kind through the module's own insert, in one
 * transaction with the note of where it came from, its files downloaded to a private folder first.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { NO_SIGNUPS } from '~/modules/events/signups.schema'
import { insertEvent } from '~/modules/events/events.service.server'
import { insertMediaItem } from '~/modules/gallery/gallery.service.server'
import { insertProduct } from '~/modules/marketplace/marketplace.service.server'
import { insertArticle } from '~/modules/news/news.service.server'
import type { LegacyImportTable } from '~/platform/db-schema'
import { db, nowIso, type Db } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { detectImageType } from '~/platform/media/image-pipeline.server'
import { IMAGE_PRESETS } from '~/platform/media/image-presets'
import { withMediaChange, type MediaChange, type StoredImage } from '~/platform/media/media-change.server'
import { readFileHead } from '~/platform/media/file-head.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { UPLOAD_MAX_BYTES } from '~/platform/media/upload-policy'
import { detectVideoFormat } from '~/platform/media/video-files.server'
import { insertVideo } from '~/platform/media/videos.server'
import { type FileRef, type LegacyArticle, type LegacyEvent, type LegacyMedia } from './legacy-documents'
import { type LegacyProduct } from './legacy-products'
import { type LegacySource } from './legacy-source.server'

export async function isImported(collection: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('legacyImports')
    .select('sourceId')
    .where('sourceCollection', '=', collection)
    .where('sourceId', '=', id)
    .executeTakeFirst()
  return row !== undefined
}

/** Notes in the record's transaction what it came from, so that the next run skips it. */
async function recordImport(
  trx: Db,
  collection: string,
  id: string,
  target: { table: LegacyImportTable['targetTable']; id: string },
): Promise<void> {
  await trx
    .insertInto('legacyImports')
    .values({ sourceCollection: collection, sourceId: id, targetTable: target.table, targetId: target.id, importedAt: nowIso() })
    .execute()
}

/** A private folder for one document's downloads (under DATA_DIR, so a video can be moved from it), removed afterwards. */
async function withWorkFolder<T>(work: (folder: string) => Promise<T>): Promise<T> {
  const folder = path.join(env.dataDir, 'import-work', crypto.randomUUID())
  await fs.promises.mkdir(folder, { recursive: true })
  try {
    return await work(folder)
  } finally {
    await fs.promises.rm(folder, { recursive: true, force: true })
    // Left in place while another import works in it.
    await fs.promises.rmdir(path.dirname(folder)).catch(() => {})
  }
}

interface Downloaded {
  path: string
  size: number
  name: string
}

async function download(source: LegacySource, folder: string, file: FileRef, maxBytes: number): Promise<Downloaded> {
  const target = path.join(folder, `${crypto.randomUUID()}`)
  await source.downloadFile(file, target, maxBytes)
  return { path: target, size: (await fs.promises.stat(target)).size, name: `file ${file.fileId}` }
}

function storeImage(media: MediaChange, file: Downloaded, preset: 'article' | 'gallery' | 'product'): Promise<StoredImage> {
  return media.storeImage({ path: file.path, size: file.size, name: file.name }, preset)
}

export async function importArticle(source: LegacySource, collection: string, id: string, article: LegacyArticle): Promise<void> {
  await withWorkFolder((folder) =>
    withMediaChange(async (media) => {
      const file = article.image ? await download(source, folder, article.image, IMAGE_PRESETS.article.maxBytes) : null
      const image = file ? await storeImage(media, file, 'article') : null
      await media.transaction(db, async (trx) => {
        const imageId = image ? await media.attach(trx, image, '') : null
        const inserted = await insertArticle(trx, article, imageId)
        await recordImport(trx, collection, id, { table: 'articles', id: inserted.id })
      })
    }),
  )
}

/** A photo or a video: the file's content decides which (as for uploads), the old type does not. */
export async function importMedia(
  source: LegacySource,
  collection: string,
  id: string,
  item: LegacyMedia,
): Promise<{ video: boolean }> {
  const details = { title: item.title, description: item.description, category: item.category, featured: item.featured }
  return withWorkFolder((folder) =>
    withMediaChange(async (media) => {
      const file = await download(source, folder, item.file, UPLOAD_MAX_BYTES)
      const head = await readFileHead(file.path)
      if (detectImageType(head)) {
        const photo = await storeImage(media, file, 'gallery')
        await media.transaction(db, async (trx) => {
          const imageId = await media.attach(trx, photo, item.title)
          const inserted = await insertMediaItem(trx, details, { kind: 'photo', imageId }, item.createdAt)
          await recordImport(trx, collection, id, { table: 'mediaItems', id: inserted.id })
        })
        return { video: false }
      }
      if (!detectVideoFormat(head)) throw new MediaRejectedError(`file ${item.file.fileId} is not an image or a video`)
      // Taken over like a finished upload: checked, moved to the work folder, converted in the background.
      const upload = {
        id: `legacy-${id}`,
        path: file.path,
        size: file.size,
        filename: `file ${item.file.fileId}`,
        contentType: '',
        temporary: false, // its work folder is removed with the import
      }
      const video = await media.stageVideo(upload)
      await media.transaction(db, async (trx) => {
        const { id: videoId } = await insertVideo(trx, video)
        const inserted = await insertMediaItem(trx, details, { kind: 'video', videoId }, item.createdAt)
        await recordImport(trx, collection, id, { table: 'mediaItems', id: inserted.id })
      })
      return { video: true }
    }),
  )
}

export async function importEvent(collection: string, id: string, event: LegacyEvent, timeZone: string): Promise<void> {
  const { createdAt, ...details } = event
  await db.transaction().execute(async (trx) => {
    const input = {
      ...details,
      repeat: 'none' as const,
      repeatEnds: 'never' as const,
      skippedDates: [],
      // The old site took no sign-ups.
      ...NO_SIGNUPS,
    }
    const inserted = await insertEvent(trx, input, timeZone, createdAt)
    await recordImport(trx, collection, id, { table: 'events', id: inserted.id })
  })
}

export async function importProduct(source: LegacySource, collection: string, id: string, product: LegacyProduct): Promise<void> {
  const { images: files, createdAt, price, ...details } = product
  await withWorkFolder((folder) =>
    withMediaChange(async (media) => {
      const images: StoredImage[] = []
      for (const file of files) {
        images.push(await storeImage(media, await download(source, folder, file, IMAGE_PRESETS.product.maxBytes), 'product'))
      }
      await media.transaction(db, async (trx) => {
        // The old data names no seller.
        const inserted = await insertProduct(trx, media, { ...details, price, seller: '' }, images, createdAt)
        await recordImport(trx, collection, id, { table: 'products', id: inserted.id })
      })
    }),
  )
}
