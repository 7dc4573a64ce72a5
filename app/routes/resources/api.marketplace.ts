import type { Route } from './+types/api.marketplace'
import { listProducts, type Product } from '~/modules/marketplace/marketplace.queries.server'
import { whatsAppChatUrl } from '~/modules/marketplace/product-contact-links'
import { markdownToPlainText } from '~/platform/markdown'
import { absoluteUrl } from '~/platform/seo'
import { getSiteOrigin } from '~/platform/site-url.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** One product in `GET /api/marketplace` (documented in docs/api.md). */
export interface ProductJson {
  slug: string
  url: string
  name: string
  description: string
  category: Product['category']
  /** In dollars, e.g. 12.5; null when the product has no price. */
  price: number | null
  seller: string | null
  images: { url: string; width: number; height: number; alt: string }[]
  facebookLink: string | null
  instagramLink: string | null
  whatsappLink: string | null
  createdAt: string
  updatedAt: string
}

function toJson(product: Product, origin: string): ProductJson {
  const url = absoluteUrl(origin, `/marketplace/${encodeURIComponent(product.slug)}`)
  return {
    slug: product.slug,
    url,
    name: product.name,
    // Plain text, as the API always gave: the links' addresses follow their words, absolute.
    description: markdownToPlainText(product.description, { linksFrom: origin }),
    category: product.category,
    price: product.priceCents === null ? null : product.priceCents / 100,
    seller: product.seller || null,
    images: product.images.map((image) => ({
      url: absoluteUrl(origin, image.src),
      width: image.width,
      height: image.height,
      alt: image.alt,
    })),
    facebookLink: product.facebookLink || null,
    instagramLink: product.instagramLink || null,
    whatsappLink: product.whatsappNumber ? whatsAppChatUrl(product.whatsappNumber, product.name, url) : null,
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
  }
}

/** Every product of the marketplace, newest first, as JSON (the old site's home page read this address). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = getSiteOrigin(request, context)
  const products = await listProducts()
  return Response.json(
    { products: products.map((product) => toJson(product, origin)) },
    { headers: { 'Cache-Control': CACHE_PROFILES.listForScripts } },
  )
}
