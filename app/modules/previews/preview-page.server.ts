import { redirect } from 'react-router'
import { previewQueryParam, type PreviewNotice } from './previews'
import { formatDate } from '~/platform/dates'
import type { Audience } from '~/platform/publication.server'
import type { PublishableTable } from '~/platform/publication'
import { resolvePreviewLink } from './preview-links.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** An item page's answer to a preview: kept by no cache, and left out of search engines. */
export const PREVIEW_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal, 'X-Robots-Tag': 'noindex' }

export interface PagePreview {
  /** Visitors, or the one item the link shows (another unpublished item's page is not opened by it). */
  audience: Audience
  notice: PreviewNotice | null
  /** The answer's headers: a preview is kept by no cache. */
  headers: Record<string, string>
}

const PUBLIC: PagePreview = { audience: 'public', notice: null, headers: {} }

/**
 * Whether an item page of `table` is asked for through a live preview link, and what its banner
 * says. Any other `?preview=` value (ended, made up, another item's) is sent on to the page's own
 * address, kept by no cache: junk values cost a redirect, never a page of their own.
 */
export async function pagePreview(
  token: string | null,
  table: PublishableTable,
  { url, origin, timeZone, secure }: { url: string; origin: string; timeZone: string; secure: boolean },
): Promise<PagePreview> {
  if (!token) return PUBLIC
  const link = await resolvePreviewLink(token)
  // A link opens its own item's page only; on any other page it is as good as made up.
  if (link.status !== 'preview' || link.table !== table || new URL(url).pathname !== link.path) {
    const clean = new URL(url)
    clean.searchParams.delete(previewQueryParam)
    throw redirect(clean.pathname + clean.search, { headers: PREVIEW_HEADERS })
  }
  return {
    // An event has no files to show.
    headers: table === 'events' ? PREVIEW_HEADERS : { ...PREVIEW_HEADERS, 'Set-Cookie': previewFilesCookie(token, secure) },
    audience: { previewOf: link.itemId },
    notice: {
      state: link.publishAt ? `scheduled for ${formatDate(link.publishAt, timeZone, 'shortWeekdayDateTime')}` : 'a draft',
      shareUrl: `${origin}/preview/${token}`,
      expires: formatDate(link.expiresAt, timeZone, 'shortWeekdayDateTime'),
    },
  }
}

/** An item route's `headers`: its parent's (e.g. the marketplace's Vary), with a preview's on top. */
export function previewPageHeaders({
  parentHeaders,
  loaderHeaders,
}: {
  parentHeaders: Headers
  loaderHeaders: Headers
}): Headers {
  const headers = new Headers(parentHeaders)
  loaderHeaders.forEach((value, key) => headers.set(key, value))
  return headers
}

/**
 * The cookies that let the browser showing a preview fetch its item's pictures and video, which
 * visitors cannot (platform/media/file-visibility.server.ts): one per link, so that two previews
 * open side by side both keep theirs, sent to /media/ only, for a day.
 */
const PREVIEW_FILES_COOKIE = 'preview-files-'
/** The most a file request's preview cookies are tried: each costs a lookup. */
const PREVIEW_COOKIES_TRIED = 5

function previewFilesCookie(token: string, secure: boolean): string {
  const linkId = token.split('.')[0]
  return `${PREVIEW_FILES_COOKIE}${linkId}=${token}; Path=/media/; HttpOnly; SameSite=Lax; Max-Age=86400${secure ? '; Secure' : ''}`
}

/** The preview links a request for a file carries (the latest cookies first), at most PREVIEW_COOKIES_TRIED. */
export function previewTokensOfFileRequest(request: Request): string[] {
  const cookies = request.headers.get('cookie')?.split(/;\s*/) ?? []
  return cookies
    .filter((cookie) => cookie.startsWith(PREVIEW_FILES_COOKIE))
    .map((cookie) => cookie.slice(cookie.indexOf('=') + 1))
    .filter((token) => token.length <= 100)
    .slice(-PREVIEW_COOKIES_TRIED)
}
