import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely'
import { cachedUntilContentChanges } from '../content-cache.server'
import type { Database } from '../db-schema'
import { db } from '../db.server'
import { isPublicNow } from '../publication.server'
import type { PublishableTable } from '../publication'
import type { ImageVariant } from './image-types'

/**
 * Which stored files a visitor may fetch: those of what is public now (a published item out of
 * the trash, a page's hero). A file of a draft, a scheduled or a trashed item, or of an upload not
 * used yet, is for signed-in people and for the holder of its item's preview link only: a photo
 * posted by mistake and withdrawn is gone from the address everyone saw.
 */

/** One item, or every item public now. */
type Whose = { table: PublishableTable; id: string } | 'public'

type IdQuery = SelectQueryBuilder<Database, keyof Database, { id: string | null }>

/** The ids of the images `whose` shows; a page's hero is always public. */
function imageIds(whose: Whose): IdQuery[] {
  const now = new Date()
  // As in isPublicNow: one condition for several tables.
  const only = (table: PublishableTable) => (eb: ExpressionBuilder<any, any>) =>
    whose === 'public' ? isPublicNow(table, now)(eb) : eb(`${table}.id`, '=', whose.id)
  const wanted = (table: PublishableTable) => whose === 'public' || whose.table === table
  return [
    wanted('articles') && db.selectFrom('articles').select('articles.imageId as id').where(only('articles')),
    wanted('mediaItems') && db.selectFrom('mediaItems').select('mediaItems.imageId as id').where(only('mediaItems')),
    wanted('mediaItems') &&
      db
        .selectFrom('mediaItems')
        .innerJoin('videos', 'videos.id', 'mediaItems.videoId')
        .select('videos.posterImageId as id')
        .where(only('mediaItems')),
    wanted('products') &&
      db
        .selectFrom('productImages')
        .innerJoin('products', 'products.id', 'productImages.productId')
        .select('productImages.imageId as id')
        .where(only('products')),
    whose === 'public' && db.selectFrom('pageSections').select('pageSections.heroImageId as id'),
  ].filter((query): query is IdQuery => query !== false)
}

/** The storage keys of every file `whose` shows: its images' variants and its converted video. */
async function fileKeys(whose: Whose): Promise<Set<string>> {
  const keys = new Set<string>()
  const ids = imageIds(whose)
  // An event has no pictures.
  const images =
    ids.length === 0
      ? []
      : await db
          .selectFrom('images')
          .select('variants')
          .where(
            'id',
            'in',
            ids.slice(1).reduce<IdQuery>((all, query) => all.union(query), ids[0]),
          )
          .execute()
  for (const image of images) for (const variant of JSON.parse(image.variants) as ImageVariant[]) keys.add(variant.key)
  if (whose === 'public' || whose.table === 'mediaItems') {
    const videos = await db
      .selectFrom('mediaItems')
      .innerJoin('videos', 'videos.id', 'mediaItems.videoId')
      .select('videos.videoKey')
      .where(whose === 'public' ? isPublicNow('mediaItems') : (eb) => eb('mediaItems.id', '=', whose.id))
      .execute()
    for (const video of videos) if (video.videoKey) keys.add(video.videoKey)
  }
  return keys
}

// One set for the whole site, made again after each change (a scheduled item going public is one).
const publicFileKeys = cachedUntilContentChanges(() => fileKeys('public'), 1)

/** Whether the file at `key` belongs to something public now. */
export async function isPublicFile(key: string): Promise<boolean> {
  return (await publicFileKeys('all')).has(key)
}

/** Whether the file at `key` belongs to this item, whatever its state (for its preview link). */
export async function isFileOf(table: PublishableTable, id: string, key: string): Promise<boolean> {
  return (await fileKeys({ table, id })).has(key)
}
