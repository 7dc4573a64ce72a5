import { listFeaturedMedia, type FeaturedMedia } from '~/modules/gallery/gallery.queries.server'
import { logger } from '~/platform/logger.server'

/**
 * The home page's blocks fed by other features: featured moments (gallery), marketplace
 * highlights and upcoming events. Each source is filled in by its module once that module
 * exists; until then, and whenever a source fails, its block shows its empty state
 * (hidden, or 'No upcoming events scheduled') and never invented items.
 */

export const FEATURED_MOMENTS_LIMIT = 4
export const MARKETPLACE_HIGHLIGHTS_LIMIT = 3
export const UPCOMING_EVENTS_LIMIT = 8

export type FeaturedMoment = FeaturedMedia

export interface MarketplaceHighlight {
  id: string
  name: string
  price: number | null
  imageUrl: string | null
}

export interface UpcomingEvent {
  id: string
  title: string
  /** ISO-8601 UTC */
  startsAt: string
  location: string
}

interface HomeHighlightSources {
  /** Featured media items, newest first. */
  featuredMoments(limit: number): Promise<FeaturedMoment[]>
  /** Random products. */
  marketplaceHighlights(limit: number): Promise<MarketplaceHighlight[]>
  /** Events starting now or later, soonest first. */
  upcomingEvents(from: Date, limit: number): Promise<UpcomingEvent[]>
}

const sources: HomeHighlightSources = {
  featuredMoments: listFeaturedMedia,
  marketplaceHighlights: async () => [],
  upcomingEvents: async () => [],
}

export interface HomeHighlights {
  featuredMoments: FeaturedMoment[]
  marketplaceHighlights: MarketplaceHighlight[]
  upcomingEvents: UpcomingEvent[]
}

export async function loadHomeHighlights(now = new Date()): Promise<HomeHighlights> {
  const [featuredMoments, marketplaceHighlights, upcomingEvents] = await Promise.all([
    orEmpty('Failed to load featured media', () => sources.featuredMoments(FEATURED_MOMENTS_LIMIT)),
    orEmpty('Failed to load products', () => sources.marketplaceHighlights(MARKETPLACE_HIGHLIGHTS_LIMIT)),
    orEmpty('Failed to load events', () => sources.upcomingEvents(now, UPCOMING_EVENTS_LIMIT)),
  ])
  return { featuredMoments, marketplaceHighlights, upcomingEvents }
}

async function orEmpty<T>(message: string, load: () => Promise<T[]>): Promise<T[]> {
  try {
    return await load()
  } catch (error) {
    logger.error({ err: error }, message)
    return []
  }
}
