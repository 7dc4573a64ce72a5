import { CACHE_PROFILES } from '~/platform/http-caching'
/*
 * The gallery's categories and addresses, apart from the form's schema, so that the public
 * pages show them without loading zod.
 */

/** The gallery's categories, in the order of its tabs (after 'all'). */
export const MEDIA_CATEGORIES = ['Events', 'Education', 'Health', 'Community', 'Projects'] as const
export type MediaCategory = (typeof MEDIA_CATEGORIES)[number]
export const DEFAULT_MEDIA_CATEGORY: MediaCategory = 'Events'

export function isMediaCategory(value: unknown): value is MediaCategory {
  return MEDIA_CATEGORIES.includes(value as MediaCategory)
}

/** The category a link typed or shared in other letters means (`health` for Health), if any. */
export function mediaCategoryWrittenOtherwise(value: string | null): MediaCategory | undefined {
  const lower = value?.toLowerCase()
  return MEDIA_CATEGORIES.find((category) => category !== value && category.toLowerCase() === lower)
}

/** How long a browser keeps the way from a category's other spelling to it: a day, since categories may be renamed. */
export const CATEGORY_REDIRECT_HEADERS = { 'Cache-Control': CACHE_PROFILES.movedForGood }

/** The address of the grid in a category (null: all) at a page. */
export function photosHref(category: MediaCategory | null, page = 1): string {
  const params = new URLSearchParams()
  if (category) params.set('category', category)
  if (page > 1) params.set('page', String(page))
  const query = params.toString()
  return query ? `/photos?${query}` : '/photos'
}

/** An item's address; opened from a category's grid, its neighbours are that category's. */
export function mediaHref(slug: string, category: MediaCategory | null): string {
  return `/photos/${encodeURIComponent(slug)}${category ? `?${new URLSearchParams({ category })}` : ''}`
}

/** Items per page of /photos: a few screenfuls of thumbnails on a phone. */
export const MEDIA_PER_PAGE = 24
