import zlib from 'node:zlib'
import { acceptsEncoding } from './accept-encoding'

/**
 * Pages for anonymous visitors, kept in memory so that a post shared on Facebook does not render
 * the same page thousands of times (docs/decisions/017-page-cache.md).
 *
 * Kept: answers to GETs without a session cookie that are 200, set no cookie, are not private or
 * `no-store`, and are a page or data (HTML, React Router's data, JSON, XML, iCalendar), never a
 * media file. A page is served from memory only while the site's content version (a token in
 * the database that every change by a signed-in user renews, in any process) is the one it was
 * made with, and for `PAGE_CACHE_SECONDS` at most (pages that depend on the time of day: the
 * calendar's "upcoming"). Each answer gets its own CSP nonce: the one the page was made with is
 * replaced by the request's.
 */

const CACHEABLE_TYPES = /^(text\/html|text\/x-script|application\/json|application\/xml|application\/rss\+xml|text\/calendar)\b/
const MAX_ENTRIES = 500
const MAX_BODY_BYTES = 1024 * 1024

interface Entry {
  version: string
  storedAt: number
  status: number
  headers: [string, string][]
  /** HTML as text (its nonce is replaced per answer); anything else as bytes. */
  body: string | Uint8Array<ArrayBuffer>
  nonce: string
}

export interface PageCache {
  /**
   * The kept answer for `key`, with `nonce` in place of the one it was made with; null when there
   * is none that is current. `version` null: the database cannot say (it is down or locked), and
   * a page kept less than the maximum age is better than an error page.
   */
  get(key: string, version: string | null, nonce: string, acceptEncoding?: string): Response | null
  /** Keeps `response` if it may be kept; returns the answer to send (the same content). */
  keep(key: string, version: string, nonce: string, response: Response, acceptEncoding?: string): Promise<Response>
}

export function isCacheableRequest(request: Request, sessionCookie: string): boolean {
  if (request.method !== 'GET' || request.headers.has('range')) return false
  if (new URL(request.url).pathname.startsWith('/media/')) return false
  const cookie = request.headers.get('cookie') ?? ''
  return !new RegExp(`(?:^|;\\s*)${sessionCookie}=`).test(cookie)
}

function isCacheableResponse(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? ''
  return (
    response.status === 200 &&
    !response.headers.has('set-cookie') &&
    !/private|no-store/.test(cacheControl) &&
    CACHEABLE_TYPES.test(response.headers.get('content-type') ?? '') &&
    Number(response.headers.get('content-length') ?? 0) <= MAX_BODY_BYTES
  )
}

/** The body in the best encoding the client takes: brotli, then gzip, at levels quick enough per answer. */
function compressed(body: Uint8Array, acceptEncoding: string): [Uint8Array<ArrayBuffer>, string | null] {
  if (body.byteLength < 1024) return [new Uint8Array(body), null]
  if (acceptsEncoding(acceptEncoding, 'br')) return [new Uint8Array(zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })), 'br']
  if (acceptsEncoding(acceptEncoding, 'gzip')) return [new Uint8Array(zlib.gzipSync(body, { level: 6 })), 'gzip']
  return [new Uint8Array(body), null]
}

export function createPageCache(maxAgeSeconds: number, now: () => number = Date.now): PageCache {
  // A Map keeps insertion order: the first key is the least recently used.
  const entries = new Map<string, Entry>()

  function answer(entry: Entry, nonce: string, state: 'hit' | 'miss', acceptEncoding = ''): Response {
    const body = typeof entry.body === 'string' ? Buffer.from(entry.body.replaceAll(entry.nonce, nonce)) : entry.body
    const headers = new Headers(entry.headers)
    headers.set('X-Page-Cache', state)
    // Compressed here, fast and synchronously (the body differs per answer by its nonce): the
    // server's streaming compression costs more than the page itself.
    const [encoded, encoding] = compressed(body, acceptEncoding)
    if (encoding) {
      headers.set('Content-Encoding', encoding)
      headers.append('Vary', 'Accept-Encoding')
    }
    return new Response(encoded, { status: entry.status, headers })
  }

  return {
    get(key, version, nonce, acceptEncoding) {
      const entry = entries.get(key)
      if (!entry) return null
      if ((version !== null && entry.version !== version) || now() - entry.storedAt > maxAgeSeconds * 1000) {
        entries.delete(key)
        return null
      }
      entries.delete(key)
      entries.set(key, entry)
      return answer(entry, nonce, 'hit', acceptEncoding)
    },

    async keep(key, version, nonce, response, acceptEncoding) {
      if (!isCacheableResponse(response)) return response
      const bytes = new Uint8Array(await response.arrayBuffer())
      if (bytes.byteLength > MAX_BODY_BYTES) return new Response(bytes, response)
      const html = (response.headers.get('content-type') ?? '').startsWith('text/html')
      const headers = [...response.headers].filter(([name]) => !['content-length', 'date'].includes(name))
      const entry: Entry = {
        version,
        storedAt: now(),
        status: response.status,
        headers,
        body: html ? new TextDecoder().decode(bytes) : bytes,
        nonce,
      }
      entries.set(key, entry)
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!)
      return answer(entry, nonce, 'miss', acceptEncoding)
    },
  }
}
