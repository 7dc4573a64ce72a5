import { sql, type ExpressionBuilder } from 'kysely'
import type { Database } from '~/platform/db-schema'
import { ADMIN_LIST_PAGE_SIZE, listPageOffset } from '~/platform/admin-list-page.server'
import { db, type Db } from '~/platform/db.server'
import { markdownToPlainText, renderMarkdown } from '~/platform/markdown'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { getImagesByIds, pickSocialImage, toResponsiveImage, type ImageRecord } from '~/platform/media/images.server'
import { productMatches } from '~/modules/search/search.queries.server'
import type { ProductCategory } from './product-categories'
import { isInState, isVisibleTo, type Audience } from '~/platform/publication.server'
import { lastChangeOf, type PublicationState } from '~/platform/publication'

/** A product as visitors see it. Nothing about who added it: sellers are named by `seller` only. */
export interface Product {
  id: string
  slug: string
  name: string
  /** Markdown. */
  description: string
  /** The description's words as plain text, line breaks kept: a card's text and the social tags. */
  descriptionText: string
  category: ProductCategory
  /** Whole cents, or null when the product has no price. */
  priceCents: number | null
  /** A first name or business name, or ''. */
  seller: string
  images: ResponsiveImageData[]
  facebookLink: string
  instagramLink: string
  /** International digits, or ''. */
  whatsappNumber: string
  createdAt: string
  updatedAt: string
}

export interface ProductDetail extends Product {
  /** The description (Markdown) as HTML, for the product's page and dialog. */
  descriptionHtml: string
  /** A JPEG small enough for link previews (a path), from the first image. */
  socialImage: { path: string; width: number; height: number; alt: string } | null
}

export interface ProductFilter {
  category: ProductCategory | null
  /** Words to find in the name or description ('' finds all). */
  search: string
}

const PRODUCT_COLUMNS = [
  'id',
  'slug',
  'name',
  'description',
  'category',
  'priceCents',
  'seller',
  'facebookLink',
  'instagramLink',
  'whatsappNumber',
  'createdAt',
  'updatedAt',
] as const

type ProductRow = Pick<Database['products'], (typeof PRODUCT_COLUMNS)[number]>

function matches(filter: ProductFilter) {
  return (eb: ExpressionBuilder<Database, 'products'>) => {
    const conditions = []
    if (filter.category) conditions.push(eb('products.category', '=', filter.category))
    const search = filter.search.trim()
    // The site's search engine: stemmed words, accents ignored (app/modules/search).
    if (search) conditions.push(productMatches(search))
    return eb.and(conditions)
  }
}

/** Each product's image ids in carousel order. */
async function imageIdsOf(productIds: readonly string[], executor: Db = db): Promise<Map<string, string[]>> {
  const byProduct = new Map<string, string[]>(productIds.map((id) => [id, []]))
  if (productIds.length === 0) return byProduct
  const rows = await executor
    .selectFrom('productImages')
    .select(['productId', 'imageId'])
    .where('productId', 'in', [...productIds])
    .orderBy('productId')
    .orderBy('position')
    .execute()
  for (const row of rows) byProduct.get(row.productId)?.push(row.imageId)
  return byProduct
}

async function withImages<Row extends ProductRow>(rows: readonly Row[]): Promise<{ row: Row; images: ImageRecord[] }[]> {
  const ids = await imageIdsOf(rows.map((row) => row.id))
  const records = await getImagesByIds([...ids.values()].flat())
  return rows.map((row) => ({ row, images: (ids.get(row.id) ?? []).flatMap((id) => records.get(id) ?? []) }))
}

function toProduct({ row, images }: { row: ProductRow; images: ImageRecord[] }): Product {
  return {
    ...row,
    descriptionText: markdownToPlainText(row.description),
    category: row.category as ProductCategory,
    // Every picture of a product is described by its name (the form asks for nothing else).
    images: images.map((image) => toResponsiveImage({ ...image, alt: image.alt || row.name })),
  }
}

function publicProducts(audience: Audience = 'public') {
  return db.selectFrom('products').where(isVisibleTo('products', audience))
}

/** The marketplace's products, newest first (a scheduled one by its publish time), filtered by category and search words. */
export async function listProducts(filter: ProductFilter = { category: null, search: '' }): Promise<Product[]> {
  const rows = await publicProducts()
    .select(PRODUCT_COLUMNS)
    .where(matches(filter))
    .orderBy('publishAt', 'desc')
    .orderBy('id')
    .execute()
  return (await withImages(rows)).map(toProduct)
}

/** What a card of the marketplace's list shows: all the list sends a phone, which hydrates it again. */
function listed({ id, slug, name, descriptionText, category, priceCents, seller, images }: Product) {
  return { id, slug, name, descriptionText, category, priceCents, seller, images }
}

export type ListedProduct = ReturnType<typeof listed>

/** The marketplace's list for visitors. */
export async function listProductsForVisitors(filter: ProductFilter): Promise<ListedProduct[]> {
  return (await listProducts(filter)).map(listed)
}

/** A few products picked at random (the home page's highlights). */
export async function pickRandomProducts(limit: number): Promise<Product[]> {
  const rows = await publicProducts()
    .select(PRODUCT_COLUMNS)
    .orderBy(sql`random()`)
    .limit(limit)
    .execute()
  return (await withImages(rows)).map(toProduct)
}

/** A product by its address, as `audience` sees it (visitors, or a preview link's reader). */
export async function getProductBySlug(slug: string, audience: Audience = 'public'): Promise<ProductDetail | null> {
  const row = await publicProducts(audience).select(PRODUCT_COLUMNS).where('slug', '=', slug).executeTakeFirst()
  if (!row) return null
  const [withPictures] = await withImages([row])
  const first = withPictures.images[0]
  const social = first ? pickSocialImage(first) : null
  return {
    ...toProduct(withPictures),
    descriptionHtml: renderMarkdown(row.description),
    socialImage: social ? { path: social.path, width: social.width, height: social.height, alt: first.alt || row.name } : null,
  }
}

export interface AdminProductRow {
  id: string
  slug: string
  name: string
  category: ProductCategory
  priceCents: number | null
  seller: string
  imageCount: number
  thumbnail: ResponsiveImageData | null
  createdAt: string
  /** Demo content of a new site (administrators only). */
  isSample: boolean
  publishAt: string | null
}

/** A page of the products out of the trash (or those in `state`), newest first, with their first image. */
export async function listProductsForAdmin(state: PublicationState | null = null, page = 1): Promise<AdminProductRow[]> {
  const rows = await db
    .selectFrom('products')
    .select([...PRODUCT_COLUMNS, 'isSample', 'publishAt'])
    .where(isInState('products', state))
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .limit(ADMIN_LIST_PAGE_SIZE)
    .offset(listPageOffset(page))
    .execute()
  return (await withImages(rows)).map(({ row, images }) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    category: row.category as ProductCategory,
    priceCents: row.priceCents,
    seller: row.seller,
    imageCount: images.length,
    thumbnail: images[0] ? toResponsiveImage({ ...images[0], alt: '' }) : null,
    createdAt: row.createdAt,
    isSample: row.isSample === 1,
    publishAt: row.publishAt,
  }))
}

export interface ProductForEdit extends Omit<Product, 'images' | 'descriptionText'> {
  images: { id: string; image: ResponsiveImageData }[]
  publishAt: string | null
  trashedAt: string | null
}

/** A product as its edit form needs it: the images with their ids, in order. */
export async function getProductForEdit(id: string): Promise<ProductForEdit | null> {
  const row = await db
    .selectFrom('products')
    .select([...PRODUCT_COLUMNS, 'publishAt', 'trashedAt'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const ids = (await imageIdsOf([id])).get(id) ?? []
  const records = await getImagesByIds(ids)
  return {
    ...row,
    category: row.category as ProductCategory,
    images: ids.flatMap((imageId) => {
      const record = records.get(imageId)
      return record ? [{ id: imageId, image: toResponsiveImage({ ...record, alt: record.alt || row.name }) }] : []
    }),
  }
}

/** A product's image ids in order, read inside a change's transaction. */
export async function productImageIds(trx: Db, productId: string): Promise<string[]> {
  return (await imageIdsOf([productId], trx)).get(productId) ?? []
}

/** Every product's address and last change, for the sitemap. */
export async function listProductSlugs(): Promise<{ slug: string; updatedAt: string }[]> {
  const rows = await publicProducts().select(['slug', 'updatedAt', 'publishAt']).orderBy('publishAt', 'desc').execute()
  return rows.map((row) => ({ slug: row.slug, updatedAt: lastChangeOf(row) }))
}
