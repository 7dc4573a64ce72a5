import { listFeaturedMedia, type FeaturedMedia } from '~/modules/gallery/gallery.queries.server'
import { logger } from '~/platform/logger.server'

/**
 * The home page's blocks fed by other features: featured moments (gallery) and marketplace
 * highlights. Each source is filled in by its module once that module exists; until then, and
 * whenever a source fails, its block is hidden and never shows invented items. (Upcoming
 * events come from the events module itself: `listUpcomingOccurrences`.)
 */

export const FEATURED_MOMENTS_LIMIT = 4
export const MARKETPLACE_HIGHLIGHTS_LIMIT = 3

export type FeaturedMoment = FeaturedMedia

export interface MarketplaceHighlight {
  id: string
  name: string
  price: number | null
  imageUrl: string | null
}

interface HomeHighlightSources {
  /** Featured media items, newest first. */
  featuredMoments(limit: number): Promise<FeaturedMoment[]>
  /** Random products. */
  marketplaceHighlights(limit: number): Promise<MarketplaceHighlight[]>
}

const sources: HomeHighlightSources = {
  featuredMoments: listFeaturedMedia,
  marketplaceHighlights: async () => [],
}

export interface HomeHighlights {
  featuredMoments: FeaturedMoment[]
  marketplaceHighlights: MarketplaceHighlight[]
}

export async function loadHomeHighlights(): Promise<HomeHighlights> {
  const [featuredMoments, marketplaceHighlights] = await Promise.all([
    orEmpty('Failed to load featured media', () => sources.featuredMoments(FEATURED_MOMENTS_LIMIT)),
    orEmpty('Failed to load products', () => sources.marketplaceHighlights(MARKETPLACE_HIGHLIGHTS_LIMIT)),
  ])
  return { featuredMoments, marketplaceHighlights }
}

/** A block's items, or none when its source fails (the failure is logged): a home page block never breaks the page. */
export async function orEmpty<T>(message: string, load: () => Promise<T[]>): Promise<T[]> {
  try {
    return await load()
  } catch (error) {
    logger.error({ err: error }, message)
    return []
  }
}
