import type { SessionUser } from '~/platform/auth.server'
import { db, lockForUpdate, nowIso, type Db } from '~/platform/db.server'
import { detectImageType } from '~/platform/media/image-pipeline.server'
import { IMAGE_PRESETS, INVALID_IMAGE_TYPE_MESSAGE } from '~/platform/media/image-presets'
import { withMediaChange, type MediaChange, type StoredImage } from '~/platform/media/media-change.server'
import { readFileHead } from '~/platform/media/file-head.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import type { FinishedUpload } from '~/platform/media/uploads.server'
import { detectVideoFormat } from '~/platform/media/video-files.server'
import { insertVideo, removeVideo, type NewVideo } from '~/platform/media/videos.server'
import { slugify } from '~/platform/slug'
import { insertWithUniqueSlug } from '~/platform/unique-slug.server'
import type { MediaEditInput, MediaUploadInput } from './gallery.schema'
import type { MediaKind } from './gallery.queries.server'
import { EDITED, publishAtOnInsert, publishAtOnUpdate, type Publishing, type WithPublishing } from '~/platform/publication'

/** The item to change no longer exists (deleted in another tab, say). */
export class MediaItemNotFoundError extends Error {
  constructor() {
    super('Media item not found')
    this.name = 'MediaItemNotFoundError'
  }
}

type ItemDetails = Pick<MediaUploadInput, 'title' | 'description' | 'category' | 'featured'> & Publishing

/** Records one item; its image or video is already recorded. Run it inside a transaction. */
export async function insertMediaItem(
  trx: Db,
  details: ItemDetails,
  file: { kind: 'photo'; imageId: string } | { kind: 'video'; videoId: string },
  createdAt = nowIso(),
): Promise<{ id: string; slug: string }> {
  const id = crypto.randomUUID()
  return insertWithUniqueSlug(trx, 'mediaItems', slugify(details.title, 'media'), async (slug) => {
    await trx
      .insertInto('mediaItems')
      .values({
        id,
        slug,
        kind: file.kind,
        title: details.title,
        description: details.description,
        category: details.category,
        featured: details.featured ? 1 : 0,
        imageId: file.kind === 'photo' ? file.imageId : null,
        videoId: file.kind === 'video' ? file.videoId : null,
        createdAt,
        updatedAt: nowIso(),
        publishAt: publishAtOnInsert(details, createdAt),
      })
      .execute()
    return { id, slug }
  })
}

/** Photo or video by the first bytes; anything else is refused with the old site's message (and not kept). */
async function kindOf(media: MediaChange, upload: FinishedUpload): Promise<MediaKind> {
  const head = await readFileHead(upload.path)
  if (detectImageType(head)) return 'photo'
  if (detectVideoFormat(head)) return 'video'
  return media.refuseUpload(upload, new MediaRejectedError(IMAGE_PRESETS.gallery.wrongTypeMessage(upload.filename)))
}

/** Checks, encodes and stores a photo upload (a refused one is discarded by the change). */
async function storePhoto(media: MediaChange, upload: FinishedUpload): Promise<StoredImage> {
  try {
    return await media.storeImage(upload, 'gallery')
  } catch (error) {
    // The gallery names the file, as the old site did.
    if (error instanceof MediaRejectedError && error.message === INVALID_IMAGE_TYPE_MESSAGE) {
      throw new MediaRejectedError(IMAGE_PRESETS.gallery.wrongTypeMessage(upload.filename))
    }
    throw error
  }
}

/**
 * Adds one item per finished upload (photos and videos, in the order chosen), all with the same
 * title, description, category and featured flag. Photos are public at once, videos once they
 * are converted. A file that is refused throws MediaRejectedError and nothing is added.
 */
export async function addMediaItems(
  input: WithPublishing<MediaUploadInput>,
  user: Pick<SessionUser, 'id'>,
): Promise<{ slugs: string[] }> {
  const slugs = await withMediaChange(async (media) => {
    const uploads: FinishedUpload[] = []
    for (const id of new Set(input.files)) uploads.push(await media.takeUpload(id, user))
    const kinds: MediaKind[] = []
    for (const upload of uploads) kinds.push(await kindOf(media, upload))
    const files: (StoredImage | NewVideo)[] = []
    for (const [index, upload] of uploads.entries()) {
      files.push(kinds[index] === 'photo' ? await storePhoto(media, upload) : await media.stageVideo(upload))
    }
    return media.transaction(db, async (trx) => {
      const now = Date.now()
      const added: string[] = []
      for (const [index, stored] of files.entries()) {
        const file =
          'variants' in stored
            ? { kind: 'photo' as const, imageId: await media.attach(trx, stored, input.title) }
            : { kind: 'video' as const, videoId: (await insertVideo(trx, stored)).id }
        // A millisecond apart, so that the grid (newest first, by publish time) shows them in the order chosen.
        const apart = (iso: string) => new Date(Date.parse(iso) - index).toISOString()
        const createdAt = apart(new Date(now).toISOString())
        const publishAt = input.publishAt ? apart(input.publishAt) : input.publishAt
        added.push((await insertMediaItem(trx, { ...input, publishAt }, file, createdAt)).slug)
      }
      return added
    })
  })
  return { slugs }
}

/** Changes an item's title, description, category and featured flag; its slug stays, so shared links keep working. */
export function updateMediaItem(id: string, input: WithPublishing<MediaEditInput>): Promise<{ slug: string }> {
  return withMediaChange((media) =>
    media.transaction(db, async (trx) => {
      const current = await trx
        .selectFrom('mediaItems')
        .select(['slug', 'imageId'])
        .where('id', '=', id)
        .where('trashedAt', 'is', null)
        .executeTakeFirst()
      if (!current) throw new MediaItemNotFoundError()
      // A photo is described by its title.
      await media.replace(trx, current.imageId, { alt: input.title })
      await trx
        .updateTable('mediaItems')
        .set({
          title: input.title,
          description: input.description,
          category: input.category,
          featured: input.featured ? 1 : 0,
          updatedAt: nowIso(),
          ...publishAtOnUpdate(input),
          ...EDITED,
        })
        .where('id', '=', id)
        .execute()
      return { slug: current.slug }
    }),
  )
}

/**
 * Deletes an item and every file of it (the photo's variants, or the video and its poster), and
 * returns its title (for the audit log). Deleting one that is gone (or, `fromTrash`, no longer in
 * the trash) is not an error and returns nothing.
 */
export function deleteMediaItem(id: string, { fromTrash = false } = {}): Promise<{ title: string } | undefined> {
  return withMediaChange((media) =>
    media.transaction(db, async (trx) => {
      const row = await lockForUpdate(
        trx
          .selectFrom('mediaItems')
          .select(['title', 'imageId', 'videoId'])
          .where('id', '=', id)
          .$if(fromTrash, (qb) => qb.where('trashedAt', 'is not', null)),
      ).executeTakeFirst()
      if (!row) return undefined
      await trx.deleteFrom('mediaItems').where('id', '=', id).execute()
      await media.remove(trx, row.imageId)
      if (row.videoId) await removeVideo(media, trx, row.videoId)
      return { title: row.title }
    }),
  )
}
