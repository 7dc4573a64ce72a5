import type { Db } from '~/platform/db.server'
import { db, lockForUpdate, nowIso } from '~/platform/db.server'
import { withMediaChange } from '~/platform/media/media-change.server'
import { slugify } from '~/platform/slug'
import { insertWithUniqueSlug } from '~/platform/unique-slug.server'
import type { ArticleInput } from './news.schema'
import { EDITED, publishAtOnInsert, publishAtOnUpdate, type Publishing, type WithPublishing } from '~/platform/publication'

/** The article to change no longer exists (deleted in another tab, say). */
export class ArticleNotFoundError extends Error {
  constructor() {
    super('Article not found')
    this.name = 'ArticleNotFoundError'
  }
}

export type NewArticle = Pick<ArticleInput, 'title' | 'content' | 'image' | 'imageAlt'> & { createdAt?: string } & Publishing

/** Records an article; its image, if any, is already recorded. Run it inside a transaction. */
export async function insertArticle(
  trx: Db,
  input: Pick<NewArticle, 'title' | 'content' | 'createdAt' | 'publishAt'>,
  imageId: string | null,
): Promise<{ id: string; slug: string }> {
  const now = nowIso()
  const id = crypto.randomUUID()
  return insertWithUniqueSlug(trx, 'articles', slugify(input.title, 'article'), async (slug) => {
    await trx
      .insertInto('articles')
      .values({
        id,
        slug,
        title: input.title,
        content: input.content,
        imageId,
        createdAt: input.createdAt ?? now,
        updatedAt: now,
        publishAt: publishAtOnInsert(input, input.createdAt ?? now),
      })
      .execute()
    return { id, slug }
  })
}

/** Saves a new article and its image. An unusable image throws MediaRejectedError and nothing is saved. */
export function createArticle(input: NewArticle): Promise<{ id: string; slug: string }> {
  return withMediaChange(async (media) => {
    const upload = input.image ? await media.storeImage(input.image, 'article') : null
    return media.transaction(db, async (trx) => {
      const imageId = upload ? await media.attach(trx, upload, input.imageAlt) : null
      return insertArticle(trx, input, imageId)
    })
  })
}

/**
 * Changes an article's text and, if asked, replaces or removes its image. The slug stays, so
 * shared links keep working. Throws ArticleNotFoundError when the article is gone or in the trash.
 */
export function updateArticle(id: string, input: WithPublishing<ArticleInput>): Promise<{ slug: string }> {
  return withMediaChange(async (media) => {
    const upload = input.image ? await media.storeImage(input.image, 'article') : null
    return media.transaction(db, async (trx) => {
      // Locked, so that parallel edits replace the image one after the other and none is left unreferenced.
      const current = await lockForUpdate(
        trx.selectFrom('articles').select(['slug', 'imageId']).where('id', '=', id).where('trashedAt', 'is', null),
      ).executeTakeFirst()
      if (!current) throw new ArticleNotFoundError()
      const imageId = await media.replace(trx, current.imageId, {
        upload,
        remove: input.removeImage,
        alt: input.imageAlt,
      })
      await trx
        .updateTable('articles')
        .set({ title: input.title, content: input.content, imageId, updatedAt: nowIso(), ...publishAtOnUpdate(input), ...EDITED })
        .where('id', '=', id)
        .execute()
      return { slug: current.slug }
    })
  })
}

/**
 * Deletes an article and its image files; returns its title (for the audit log). Deleting one
 * that is already gone (or, `fromTrash`, no longer in the trash) is not an error and returns nothing.
 */
export function deleteArticle(id: string, { fromTrash = false } = {}): Promise<{ title: string } | undefined> {
  return withMediaChange((media) =>
    media.transaction(db, async (trx) => {
      const row = await lockForUpdate(
        trx
          .selectFrom('articles')
          .select(['title', 'imageId'])
          .where('id', '=', id)
          .$if(fromTrash, (qb) => qb.where('trashedAt', 'is not', null)),
      ).executeTakeFirst()
      if (!row) return undefined
      await trx.deleteFrom('articles').where('id', '=', id).execute()
      await media.remove(trx, row.imageId)
      return { title: row.title }
    }),
  )
}
