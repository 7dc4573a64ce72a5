/**
 * How long browsers and the caches in between (Caddy, nginx, a CDN) may keep each kind of answer,
 * in one place (docs/decisions/048-standard-http-caching.md). Every answer the site makes takes
 * one of these; none writes its own.
 */
export const CACHE_PROFILES = {
  /** Made for one person (signed in, a secret link, a form's answer): never stored anywhere. */
  personal: 'private, no-store',
  /** About this moment (the health check, the setup page): never stored. */
  momentary: 'no-store',
  /** A search: the visitor's own browser may keep it for the back button, asking again first. */
  search: 'private, no-cache',
  /**
   * An anonymous visitor's page: any cache may keep it, and asks again before each use, which the
   * page's ETag answers with a 304 while it is the same (server/page-cache.ts).
   */
  publicPage: 'public, no-cache',
  /** Feeds that readers and calendar apps poll: a few minutes old at most. */
  feed: 'public, max-age=300',
  /** The whole calendar, subscribed to by phones that ask every few hours. */
  calendarFeed: 'public, max-age=900',
  /** The marketplace's list for its own script, asked for as the visitor filters. */
  listForScripts: 'public, max-age=60',
  /** Rarely changed texts for crawlers (robots.txt, the sitemap). */
  forCrawlers: 'public, max-age=3600',
  /** Old addresses that now lead elsewhere for good. */
  movedForGood: 'public, max-age=86400',
  /** A file whose address changes with its content and that is never withdrawn (built scripts and styles). */
  immutable: 'public, max-age=31536000, immutable',
  /**
   * A picture or video of a public item: kept an hour, then checked (a 304 while it is the same),
   * so that a withdrawn one leaves the caches within the hour.
   */
  fileOfPublicItem: 'public, max-age=3600',
  /** A file that keeps its address when it changes (the favicon, the social preview picture). */
  named: 'public, max-age=3600',
  /** A file the browser checks at every visit, so a new one takes over at once (the service worker). */
  checkedEachVisit: 'no-cache',
} as const

/** Whether an `If-None-Match` list names this tag (weak comparison, as RFC 9110 asks for it). */
export function namesTag(ifNoneMatch: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '')
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === opaque)
}
