import type { Db } from '~/platform/db.server'
import { db, nowIso } from '~/platform/db.server'
import {
  deleteImageFiles,
  deleteImageRecord,
  insertImage,
  withStoredImage,
  type StoredImageFiles,
} from '~/platform/images.server'
import { firstFreeSlug, slugify } from '~/platform/slug'
import { ARTICLE_IMAGE_LIMITS, type ArticleInput } from './news.schema'

/** The article to change no longer exists (deleted in another tab, say). */
export class ArticleNotFoundError extends Error {
  constructor() {
    super('Article not found')
    this.name = 'ArticleNotFoundError'
  }
}

async function uniqueSlug(executor: Db, title: string): Promise<string> {
  const base = slugify(title, 'article')
  const taken = new Set(
    (
      await executor
        .selectFrom('articles')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute()
    ).map((r) => r.slug),
  )
  return firstFreeSlug(base, taken)
}

/** Runs `save` with the new image's files stored first (removed again if `save` fails), or without. */
function withOptionalImage<T>(image: File | undefined, save: (files: StoredImageFiles | null) => Promise<T>) {
  return image ? withStoredImage(image, ARTICLE_IMAGE_LIMITS, save) : save(null)
}

export type NewArticle = Pick<ArticleInput, 'title' | 'content' | 'image' | 'imageAlt'> & { createdAt?: string }

/** Records an article and its already stored image files; run it inside a transaction. */
export async function insertArticle(
  trx: Db,
  input: Omit<NewArticle, 'image'>,
  files: StoredImageFiles | null,
): Promise<{ id: string; slug: string }> {
  const image = files ? await insertImage(trx, files, input.imageAlt) : null
  const now = nowIso()
  const article = { id: crypto.randomUUID(), slug: await uniqueSlug(trx, input.title) }
  await trx
    .insertInto('articles')
    .values({
      ...article,
      title: input.title,
      content: input.content,
      category: null,
      imageId: image?.id ?? null,
      createdAt: input.createdAt ?? now,
      updatedAt: now,
    })
    .execute()
  return article
}

/** Saves a new article and its image. An unusable image throws ImageRejectedError and nothing is saved. */
export async function createArticle(input: NewArticle): Promise<{ id: string; slug: string }> {
  return withOptionalImage(input.image, (files) => db.transaction().execute((trx) => insertArticle(trx, input, files)))
}

/**
 * Changes an article's text and, if asked, replaces or removes its image. The slug stays, so
 * shared links keep working. Throws ArticleNotFoundError when the article is gone.
 */
export async function updateArticle(id: string, input: ArticleInput): Promise<{ slug: string }> {
  const { slug, replacedFiles } = await withOptionalImage(input.image, (files) =>
    db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('articles')
        .select(['slug', 'imageId'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!current) throw new ArticleNotFoundError()
      let imageId = current.imageId
      if (files) imageId = (await insertImage(trx, files, input.imageAlt)).id
      else if (input.removeImage) imageId = null
      else if (imageId) await trx.updateTable('images').set({ alt: input.imageAlt }).where('id', '=', imageId).execute()
      await trx
        .updateTable('articles')
        .set({ title: input.title, content: input.content, imageId, updatedAt: nowIso() })
        .where('id', '=', id)
        .execute()
      const replacedFiles =
        current.imageId && current.imageId !== imageId ? await deleteImageRecord(trx, current.imageId) : []
      return { slug: current.slug, replacedFiles }
    }),
  )
  // Only once the change is committed: the old files are no longer referenced.
  await deleteImageFiles(replacedFiles)
  return { slug }
}

/** Deletes an article and its image files. Deleting one that is already gone is not an error. */
export async function deleteArticle(id: string): Promise<void> {
  const files = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('articles').select('imageId').where('id', '=', id).executeTakeFirst()
    if (!row) return []
    await trx.deleteFrom('articles').where('id', '=', id).execute()
    return row.imageId ? deleteImageRecord(trx, row.imageId) : []
  })
  await deleteImageFiles(files)
}
