import { ADMIN_LIST_PAGE_SIZE, listPageOffset } from '~/platform/admin-list-page.server'
import { db } from '~/platform/db.server'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { toResponsiveImage } from '~/platform/media/images.server'
import { getVideosByIds, type VideoStatus } from '~/platform/media/videos.server'
import { isInState } from '~/platform/publication.server'
import type { PublicationState } from '~/platform/publication'
import { loadPictures, pictureId, SUMMARY_COLUMNS, type MediaKind, type SummaryRow } from './gallery.queries.server'

/** What the admin's gallery pages and the dashboard read: every item, whatever its state. */

export interface AdminMediaRow {
  id: string
  slug: string
  kind: MediaKind
  title: string
  category: string
  featured: boolean
  createdAt: string
  /** Photos are always ready; a video until its conversion is done, or when it failed, is not. */
  status: VideoStatus
  /** What the admin should know: converting, why it failed, or why it is shown unconverted. */
  statusText: string | null
  thumbnail: ResponsiveImageData | null
  /** Demo content of a new site (administrators only). */
  isSample: boolean
  publishAt: string | null
}

const ADMIN_COLUMNS = [
  ...SUMMARY_COLUMNS,
  'mediaItems.featured',
  'mediaItems.isSample',
  'mediaItems.publishAt',
  'mediaItems.description',
  'mediaItems.videoId',
  'videos.status',
  'videos.statusText',
] as const

type AdminRow = SummaryRow & {
  id: string
  featured: number
  isSample: number
  publishAt: string | null
  description: string
  videoId: string | null
  status: VideoStatus | null
  statusText: string | null
}

async function toAdminRows(rows: readonly AdminRow[]): Promise<(AdminMediaRow & { description: string })[]> {
  const pictures = await loadPictures(rows)
  // A video's own record says what is happening (its default text while it converts).
  const videos = await getVideosByIds(rows.flatMap((row) => row.videoId ?? []))
  return rows.map((row) => {
    const picture = pictures.get(pictureId(row) ?? '')
    const video = row.videoId ? videos.get(row.videoId) : undefined
    return {
      id: row.id,
      slug: row.slug,
      kind: row.kind,
      title: row.title,
      description: row.description,
      category: row.category,
      featured: row.featured === 1,
      isSample: row.isSample === 1,
      publishAt: row.publishAt,
      createdAt: row.createdAt,
      status: row.kind === 'photo' ? 'ready' : (video?.status ?? 'failed'),
      statusText: video?.statusText ?? null,
      thumbnail: picture ? toResponsiveImage({ ...picture, alt: '' }) : null,
    }
  })
}

function adminItems() {
  return db.selectFrom('mediaItems').leftJoin('videos', 'videos.id', 'mediaItems.videoId').select(ADMIN_COLUMNS)
}

/** A page of the items out of the trash (or those in `state`), newest first, converted or not. */
export async function listMediaForAdmin(state: PublicationState | null = null, page = 1): Promise<AdminMediaRow[]> {
  const rows = await adminItems()
    .where(isInState('mediaItems', state))
    .orderBy('mediaItems.createdAt', 'desc')
    .orderBy('mediaItems.id', 'desc')
    .limit(ADMIN_LIST_PAGE_SIZE)
    .offset(listPageOffset(page))
    .execute()
  return (await toAdminRows(rows)).map(({ description: _description, ...row }) => row)
}

export type MediaForEdit = AdminMediaRow & { description: string; trashedAt: string | null }

export async function getMediaForEdit(id: string): Promise<MediaForEdit | null> {
  const row = await adminItems().select('mediaItems.trashedAt').where('mediaItems.id', '=', id).executeTakeFirst()
  return row ? { ...(await toAdminRows([row]))[0], trashedAt: row.trashedAt } : null
}

/** How many uploaded videos are still being converted (not yet on the public site). */
export async function countVideosStillProcessing(): Promise<number> {
  const { count } = await db
    .selectFrom('mediaItems')
    .innerJoin('videos', 'videos.id', 'mediaItems.videoId')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('videos.status', '=', 'processing')
    .executeTakeFirstOrThrow()
  return Number(count)
}
