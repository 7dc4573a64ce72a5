import { sql, type ExpressionBuilder } from 'kysely'
import type { Database } from '~/platform/db-schema'
import { markdownToPlainText, renderMarkdown } from '~/platform/markdown'
import { db } from '~/platform/db.server'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { getImagesByIds, pickSocialImage, toResponsiveImage, type ImageRecord } from '~/platform/media/images.server'
import { getVideosByIds, isVideoReady } from '~/platform/media/videos.server'
import { MEDIA_PER_PAGE, type MediaCategory } from './media-categories'
import { isVisibleTo, type Audience } from '~/platform/publication.server'
import { lastChangeOf } from '~/platform/publication'

export type MediaKind = 'photo' | 'video'

export interface MediaSummary {
  /** For an administrator's controls on the public pages (edit, delete). */
  id: string
  slug: string
  kind: MediaKind
  title: string
  category: string
  /** When it went (or goes) public: its publish time, or when it was added for a draft. */
  publishedAt: string
  /** The photo, or the video's poster. */
  thumbnail: ResponsiveImageData
}

export interface MediaVideo {
  src: string
  contentType: string
  width: number | null
  height: number | null
  poster: ResponsiveImageData
}

export interface MediaDetail extends MediaSummary {
  /** For the admin bar's "Edit this page" link. */
  id: string
  /** The description (Markdown) as HTML, and as plain text for social tags. */
  descriptionHtml: string
  descriptionText: string
  updatedAt: string
  video: MediaVideo | null
  /** A JPEG small enough for link previews (a path): the photo, or the video's poster. */
  socialImage: { path: string; width: number; height: number; alt: string } | null
  /** The neighbours in the list it was opened from (newer first), by slug. */
  previous: string | null
  next: string | null
}

export interface MediaPage {
  items: MediaSummary[]
  page: number
  pageCount: number
}

type Eb = ExpressionBuilder<Database, 'mediaItems' | 'videos'>

/**
 * Photos, and videos whose files are ready: an item still converting or failed is not shown. A
 * condition on `media_items` left-joined with its `videos`, for the gallery's queries and the site search.
 */
export const isReadyToShow = sql<boolean>`(media_items.kind = 'photo' or videos.status = 'ready')`

function inCategory(category: MediaCategory | null) {
  return (eb: Eb) => (category ? eb('mediaItems.category', '=', category) : eb.lit(true))
}

function publicItems(category: MediaCategory | null, audience: Audience = 'public') {
  return db
    .selectFrom('mediaItems')
    .leftJoin('videos', 'videos.id', 'mediaItems.videoId')
    .where(isVisibleTo('mediaItems', audience))
    .where(isReadyToShow)
    .where(inCategory(category))
}

export const SUMMARY_COLUMNS = [
  'mediaItems.id',
  'mediaItems.slug',
  'mediaItems.kind',
  'mediaItems.title',
  'mediaItems.category',
  'mediaItems.imageId',
  'mediaItems.createdAt',
  'mediaItems.publishAt',
  'videos.posterImageId',
] as const

export type SummaryRow = {
  id: string
  slug: string
  kind: MediaKind
  title: string
  category: string
  imageId: string | null
  posterImageId: string | null
  createdAt: string
  publishAt: string | null
}

/** The picture that stands for an item: the photo, or the video's poster. */
export function pictureId(row: Pick<SummaryRow, 'imageId' | 'posterImageId'>): string | null {
  return row.imageId ?? row.posterImageId
}

export async function loadPictures(rows: readonly SummaryRow[]): Promise<Map<string, ImageRecord>> {
  return getImagesByIds(rows.flatMap((row) => pictureId(row) ?? []))
}

/** A public item's summary; null when its picture is missing (never for a ready item). */
function toSummary(row: SummaryRow, pictures: Map<string, ImageRecord>): MediaSummary | null {
  const picture = pictures.get(pictureId(row) ?? '')
  if (!picture) return null
  return {
    id: row.id,
    slug: row.slug,
    kind: row.kind,
    title: row.title,
    category: row.category,
    publishedAt: row.publishAt ?? row.createdAt,
    // The poster of a video has no description of its own: the title says what it shows.
    thumbnail: toResponsiveImage({ ...picture, alt: picture.alt || row.title }),
  }
}

async function toSummaries(rows: readonly SummaryRow[]): Promise<MediaSummary[]> {
  const pictures = await loadPictures(rows)
  return rows.flatMap((row) => toSummary(row, pictures) ?? [])
}

/** One page of /photos, newest first (a scheduled item by its publish time), in one category or all. */
export async function listPublishedMedia(category: MediaCategory | null, page: number): Promise<MediaPage> {
  const { total } = await publicItems(category)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow()
  const rows = await publicItems(category)
    .select(SUMMARY_COLUMNS)
    .orderBy('mediaItems.publishAt', 'desc')
    .orderBy('mediaItems.id', 'desc')
    .limit(MEDIA_PER_PAGE)
    .offset((page - 1) * MEDIA_PER_PAGE)
    .execute()
  return {
    items: await toSummaries(rows),
    page,
    pageCount: Math.max(1, Math.ceil(Number(total) / MEDIA_PER_PAGE)),
  }
}

export type FeaturedMedia = Pick<MediaSummary, 'slug' | 'kind' | 'title' | 'thumbnail'>

/** The newest items the admin marked as featured, for the home page. */
export async function listFeaturedMedia(limit: number): Promise<FeaturedMedia[]> {
  const rows = await publicItems(null)
    .where('mediaItems.featured', '=', 1)
    .select(SUMMARY_COLUMNS)
    .orderBy('mediaItems.publishAt', 'desc')
    .orderBy('mediaItems.id', 'desc')
    .limit(limit)
    .execute()
  return (await toSummaries(rows)).map(({ slug, kind, title, thumbnail }) => ({ slug, kind, title, thumbnail }))
}

/** The slug of the item before (newer) or after (older) this one in the list newest first (by publish time). */
async function neighbour(
  item: { id: string; publishedAt: string },
  category: MediaCategory | null,
  direction: 'newer' | 'older',
): Promise<string | null> {
  const [compare, order] = direction === 'newer' ? (['>', 'asc'] as const) : (['<', 'desc'] as const)
  const row = await publicItems(category)
    .select('mediaItems.slug')
    .where((eb) =>
      eb.or([
        eb('mediaItems.publishAt', compare, item.publishedAt),
        eb.and([eb('mediaItems.publishAt', '=', item.publishedAt), eb('mediaItems.id', compare, item.id)]),
      ]),
    )
    .orderBy('mediaItems.publishAt', order)
    .orderBy('mediaItems.id', order)
    .limit(1)
    .executeTakeFirst()
  return row?.slug ?? null
}

/**
 * A public item by its slug, with its neighbours in `category`'s list (all when null); null when
 * there is none or it is not public (a video still converting). `audience`: visitors, or a
 * preview link's reader.
 */
export async function getPublishedMediaBySlug(
  slug: string,
  category: MediaCategory | null,
  audience: Audience = 'public',
): Promise<MediaDetail | null> {
  const row = await publicItems(null, audience)
    .select([...SUMMARY_COLUMNS, 'mediaItems.description', 'mediaItems.videoId', 'mediaItems.updatedAt'])
    .where('mediaItems.slug', '=', slug)
    .executeTakeFirst()
  if (!row) return null
  const pictures = await loadPictures([row])
  const summary = toSummary(row, pictures)
  const video = row.videoId ? (await getVideosByIds([row.videoId])).get(row.videoId) : undefined
  if (!summary || (row.kind === 'video' && (!video || !isVideoReady(video)))) return null
  const picture = pictures.get(pictureId(row)!)!
  const social = pickSocialImage(picture)
  const listedIn = category === row.category ? category : null
  const [previous, next] = await Promise.all([neighbour(summary, listedIn, 'newer'), neighbour(summary, listedIn, 'older')])
  return {
    ...summary,
    id: row.id,
    descriptionHtml: renderMarkdown(row.description),
    descriptionText: markdownToPlainText(row.description),
    updatedAt: row.updatedAt,
    video:
      video && isVideoReady(video)
        ? { src: video.src, contentType: video.contentType, width: video.width, height: video.height, poster: summary.thumbnail }
        : null,
    socialImage: social ? { path: social.path, width: social.width, height: social.height, alt: summary.thumbnail.alt } : null,
    previous,
    next,
  }
}

export interface MediaSitemapEntry {
  slug: string
  updatedAt: string
}

// A sitemap file holds at most 50,000 addresses; articles and the static pages take the rest.
const SITEMAP_MEDIA_LIMIT = 20_000

/** The address and last change of every public item, newest first, for sitemap.xml. */
export async function listMediaForSitemap(): Promise<MediaSitemapEntry[]> {
  const rows = await publicItems(null)
    .select(['mediaItems.slug', 'mediaItems.updatedAt', 'mediaItems.publishAt'])
    .orderBy('mediaItems.publishAt', 'desc')
    .limit(SITEMAP_MEDIA_LIMIT)
    .execute()
  return rows.map((row) => ({ slug: row.slug, updatedAt: lastChangeOf(row) }))
}
