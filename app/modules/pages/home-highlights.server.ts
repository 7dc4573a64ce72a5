import { listFeaturedMedia, type FeaturedMedia } from '~/modules/gallery/gallery.queries.server'
import { HIGHLIGHTS_SHIPPED } from '~/modules/marketplace/highlights'
import { pickRandomProducts } from '~/modules/marketplace/marketplace.queries.server'
import { formatPrice } from '~/modules/marketplace/product-price'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { cachedUntilContentChanges, type Shared } from '~/platform/content-cache.server'
import { logger } from '~/platform/logger.server'

/**
 * The home page's blocks fed by other features: featured moments (gallery) and marketplace
 * highlights. Whenever a source fails, its block is hidden and never shows invented items.
 * (Upcoming events come from the events module itself: `listUpcomingOccurrences`.)
 */

export const FEATURED_MOMENTS_LIMIT = 4

export type FeaturedMoment = FeaturedMedia

export interface MarketplaceHighlight {
  slug: string
  name: string
  /** '$12.50', or null when the product has no price. */
  price: string | null
  image: ResponsiveImageData | null
}

async function marketplaceHighlights(limit: number): Promise<MarketplaceHighlight[]> {
  const products = await pickRandomProducts(limit)
  return products.map((product) => ({
    slug: product.slug,
    name: product.name,
    price: formatPrice(product.priceCents),
    image: product.images[0] ?? null,
  }))
}

interface HomeHighlightSources {
  /** Featured media items, newest first. */
  featuredMoments(limit: number): Promise<FeaturedMoment[]>
  /** Random products (more than the page shows: see modules/marketplace/highlights). */
  marketplaceHighlights(limit: number): Promise<MarketplaceHighlight[]>
}

const sources: HomeHighlightSources = {
  featuredMoments: listFeaturedMedia,
  marketplaceHighlights,
}

export interface HomeHighlights {
  featuredMoments: Shared<FeaturedMoment[]>
  marketplaceHighlights: Shared<MarketplaceHighlight[]>
}

// The same for every visitor of the home page: cached until the content changes. A failed source
// is not cached, so it is tried again next time.
const cachedFeaturedMoments = cachedUntilContentChanges(() => sources.featuredMoments(FEATURED_MOMENTS_LIMIT), 1)
const cachedMarketplaceHighlights = cachedUntilContentChanges(() => sources.marketplaceHighlights(HIGHLIGHTS_SHIPPED), 1)

/** The home page's photos and products (the page picks among the products shipped with its own script). */
export async function loadHomeHighlights(): Promise<HomeHighlights> {
  const [featuredMoments, marketplaceHighlights] = await Promise.all([
    orEmpty('Failed to load featured media', () => cachedFeaturedMoments('')),
    orEmpty('Failed to load products', () => cachedMarketplaceHighlights('')),
  ])
  return { featuredMoments, marketplaceHighlights }
}

/** A block's items, or none when its source fails (the failure is logged): a home page block never breaks the page. */
export async function orEmpty<T>(message: string, load: () => Promise<readonly T[]>): Promise<readonly T[]> {
  try {
    return await load()
  } catch (error) {
    logger.error({ err: error }, message)
    return []
  }
}
