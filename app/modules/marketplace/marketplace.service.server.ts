import type { SessionUser } from '~/platform/auth.server'
import { db, lockForUpdate, nowIso, type Db } from '~/platform/db.server'
import { withMediaChange, type MediaChange, type StoredImage } from '~/platform/media/media-change.server'
import { keptImageIds } from '~/platform/media/image-field'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { slugify } from '~/platform/slug'
import { insertWithUniqueSlug } from '~/platform/unique-slug.server'
import { PRODUCT_IMAGES_MAX, TOO_MANY_IMAGES_MESSAGE, type ProductInput } from './marketplace.schema'
import { productImageIds } from './marketplace.queries.server'
import { EDITED, publishAtOnInsert, publishAtOnUpdate, type WithPublishing } from '~/platform/publication'

/** The product to change no longer exists (deleted in another tab, say). */
export class ProductNotFoundError extends Error {
  constructor() {
    super('Product not found')
    this.name = 'ProductNotFoundError'
  }
}

type ProductDetails = Omit<WithPublishing<ProductInput>, 'uploads' | 'keepImages' | 'removeImages'>

function columnsOf(details: ProductDetails) {
  return {
    name: details.name,
    description: details.description,
    category: details.category,
    priceCents: details.price,
    seller: details.seller,
    facebookLink: details.facebookLink,
    instagramLink: details.instagramLink,
    whatsappNumber: details.whatsappNumber,
  }
}

/** Storing the images failed for a reason of the server's (not the files'): sending them again may work. */
export class ProductImagesFailedError extends Error {
  constructor(cause: unknown) {
    super('Product images could not be stored', { cause })
    this.name = 'ProductImagesFailedError'
  }
}

/**
 * Checks, crops and stores the finished uploads, in order, before any transaction. A refused
 * file is discarded (sending it again cannot help) and nothing of this change stays stored.
 */
async function storeUploads(media: MediaChange, uploadIds: readonly string[], user: Pick<SessionUser, 'id'>) {
  const stored: StoredImage[] = []
  for (const uploadId of uploadIds) {
    const upload = await media.takeUpload(uploadId, user)
    try {
      stored.push(await media.storeImage(upload, 'product'))
    } catch (error) {
      throw error instanceof MediaRejectedError ? error : new ProductImagesFailedError(error)
    }
  }
  return stored
}

async function writeImageOrder(trx: Db, productId: string, imageIds: readonly string[]) {
  await trx.deleteFrom('productImages').where('productId', '=', productId).execute()
  if (imageIds.length === 0) return
  await trx
    .insertInto('productImages')
    .values(imageIds.map((imageId, position) => ({ productId, position, imageId })))
    .execute()
}

/** Records a product whose images are already stored; run it inside the change's transaction. */
export async function insertProduct(
  trx: Db,
  media: MediaChange,
  details: WithPublishing<ProductDetails>,
  images: readonly StoredImage[],
  createdAt = nowIso(),
): Promise<{ id: string; slug: string }> {
  const id = crypto.randomUUID()
  const inserted = await insertWithUniqueSlug(trx, 'products', slugify(details.name, 'product'), async (slug) => {
    await trx
      .insertInto('products')
      .values({
        id,
        slug,
        ...columnsOf(details),
        createdAt,
        updatedAt: nowIso(),
        publishAt: publishAtOnInsert(details, createdAt),
      })
      .execute()
    return { id, slug }
  })
  const imageIds = await media.syncImages(trx, {
    current: [],
    keep: [],
    add: images,
    alt: details.name,
    max: { count: PRODUCT_IMAGES_MAX, message: TOO_MANY_IMAGES_MESSAGE },
  })
  await writeImageOrder(trx, id, imageIds)
  return inserted
}

/** Adds a product with its images (finished resumable uploads of `user`). */
export async function createProduct(
  input: WithPublishing<ProductInput>,
  user: Pick<SessionUser, 'id'>,
): Promise<{ id: string; slug: string }> {
  if (input.uploads.length > PRODUCT_IMAGES_MAX) throw new MediaRejectedError(TOO_MANY_IMAGES_MESSAGE)
  const uploadIds = [...new Set(input.uploads)]
  return withMediaChange(async (media) => {
    const images = await storeUploads(media, uploadIds, user)
    return media.transaction(db, (trx) => insertProduct(trx, media, input, images))
  })
}

/**
 * Changes a product: its details, which of its images stay and in what order, and new images
 * added after them. The slug stays, so shared links keep working.
 */
export async function updateProduct(
  id: string,
  input: WithPublishing<ProductInput>,
  user: Pick<SessionUser, 'id'>,
): Promise<{ slug: string }> {
  const uploadIds = [...new Set(input.uploads)]
  return withMediaChange(async (media) => {
    const images = await storeUploads(media, uploadIds, user)
    return media.transaction(db, async (trx) => {
      const current = await lockForUpdate(
        trx.selectFrom('products').select('slug').where('id', '=', id).where('trashedAt', 'is', null),
      ).executeTakeFirst()
      if (!current) throw new ProductNotFoundError()
      const imageIds = await media.syncImages(trx, {
        current: await productImageIds(trx, id),
        keep: keptImageIds(input),
        add: images,
        alt: input.name,
        max: { count: PRODUCT_IMAGES_MAX, message: TOO_MANY_IMAGES_MESSAGE },
      })
      await writeImageOrder(trx, id, imageIds)
      await trx
        .updateTable('products')
        .set({ ...columnsOf(input), updatedAt: nowIso(), ...publishAtOnUpdate(input), ...EDITED })
        .where('id', '=', id)
        .execute()
      return { slug: current.slug }
    })
  })
}

/**
 * Deletes a product and its images. The files go once the deletion is committed; a file that
 * cannot be deleted is logged and left to the sweep of unreferenced files, and the product is gone anyway.
 * Deleting one that is gone (or, `fromTrash`, no longer in the trash) is not an error. Returns the
 * product's name (for the audit log), or nothing when it was gone.
 */
export function deleteProduct(id: string, { fromTrash = false } = {}): Promise<{ name: string } | undefined> {
  return withMediaChange((media) =>
    media.transaction(db, async (trx) => {
      const row = await lockForUpdate(
        trx
          .selectFrom('products')
          .select('name')
          .where('id', '=', id)
          .$if(fromTrash, (qb) => qb.where('trashedAt', 'is not', null)),
      ).executeTakeFirst()
      if (!row) return undefined
      const imageIds = await productImageIds(trx, id)
      await trx.deleteFrom('productImages').where('productId', '=', id).execute()
      await trx.deleteFrom('products').where('id', '=', id).execute()
      for (const imageId of imageIds) await media.remove(trx, imageId)
      return { name: row.name }
    }),
  )
}
