import crypto from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { env } from '../app/platform/env.server'
import { bestEncoding } from './accept-encoding'

/**
 * Pages for anonymous visitors, kept in memory so that a post shared on Facebook does not render
 * the same page thousands of times (docs/decisions/017-page-cache.md).
 *
 * Kept: answers to GETs without a session cookie that are 200, set no cookie, are not private or
 * `no-store`, and are a page or data (HTML, React Router's data, JSON, XML, iCalendar), never a
 * media file. A page is kept by its address with only the query parameters its routes declare
 * (server/declared-query.ts). It is served from memory only while the site's content version (a
 * token in the database that every change by a signed-in user renews, in any process) is the one
 * it was made with, and for `PAGE_CACHE_SECONDS` at most (pages that depend on the time of day:
 * the calendar's "upcoming").
 *
 * A kept page is sent as it was made, byte for byte, compressed ahead: its inline scripts are
 * allowed by their hashes in its Content-Security-Policy instead of a nonce per answer.
 */

const CACHEABLE_TYPES = /^(text\/html|text\/x-script|application\/json|application\/xml|application\/rss\+xml|text\/calendar)\b/
const MAX_ENTRIES = 500
const MAX_BODY_BYTES = 1024 * 1024

export interface KeptPage {
  version: string
  storedAt: number
  status: number
  /** The answer's headers, without those of its encoding, length and Vary. */
  headers: [string, string][]
  /** What the page depends on besides the URL (e.g. Cookie); Accept-Encoding is added per answer. */
  vary: string[]
  identity: Buffer
  gzip?: Buffer
  br?: Buffer
}

export interface PageCache {
  /**
   * The kept page for `key` if it is current. `version` null: the database cannot say (it is
   * down or locked), and a page kept less than the maximum age is better than an error page.
   */
  get(key: string, version: string | null): KeptPage | null
  set(key: string, page: KeptPage): void
}

export function createPageCache(maxAgeSeconds: number, now: () => number = Date.now): PageCache {
  // A Map keeps insertion order: the first key is the least recently used.
  const entries = new Map<string, KeptPage>()
  return {
    get(key, version) {
      const page = entries.get(key)
      if (!page) return null
      entries.delete(key)
      if ((version !== null && page.version !== version) || now() - page.storedAt > maxAgeSeconds * 1000) return null
      entries.set(key, page)
      return page
    },
    set(key, page) {
      entries.delete(key)
      entries.set(key, page)
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!)
    },
  }
}

function header(incoming: IncomingMessage, name: string): string {
  const value = incoming.headers[name]
  return Array.isArray(value) ? value.join(', ') : (value ?? '')
}

export function isCacheableRequest(incoming: IncomingMessage, sessionCookie: string): boolean {
  // Only a target in origin form (`/news?page=2`): the address that the page's key is made of.
  const target = incoming.url ?? ''
  if (incoming.method !== 'GET' || incoming.headers.range || !target.startsWith('/') || target.startsWith('/media/')) return false
  const session = `${sessionCookie}=`
  return !header(incoming, 'cookie')
    .split(';')
    .some((cookie) => cookie.trimStart().startsWith(session))
}

/**
 * Everything a page for an anonymous visitor may depend on: its path and the query parameters its
 * routes read (`pathAndQuery`, from server/declared-query.ts), and the address it was reached on,
 * which its links name.
 */
export function pageKey(incoming: IncomingMessage, pathAndQuery: string): string {
  const forwardedProto = env.TRUST_PROXY ? header(incoming, 'x-forwarded-proto') : ''
  const { localAddress, localPort } = incoming.socket
  return [header(incoming, 'host'), forwardedProto, localAddress, localPort, pathAndQuery, header(incoming, 'cookie')].join(' ')
}

function mayBeKept(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? ''
  return (
    response.status === 200 &&
    !response.headers.has('set-cookie') &&
    !/private|no-store/.test(cacheControl) &&
    CACHEABLE_TYPES.test(response.headers.get('content-type') ?? '') &&
    Number(response.headers.get('content-length') ?? 0) <= MAX_BODY_BYTES
  )
}

/** The body as made, undoing the compression of the app's own middleware. */
function decoded(bytes: Buffer, encoding: string | null): Buffer {
  if (encoding === 'gzip') return zlib.gunzipSync(bytes)
  if (encoding === 'deflate') return zlib.inflateSync(bytes)
  if (encoding === 'br') return zlib.brotliDecompressSync(bytes)
  return bytes
}

/**
 * The page's inline scripts allowed by their SHA-256 hashes instead of the nonce it was made with:
 * the same scripts, and only they, run; the page no longer changes from one answer to the next.
 */
function hashesForNonce(html: string, csp: string): { html: string; csp: string } {
  const nonce = csp.match(/'nonce-([^']+)'/)?.[1]
  if (!nonce) return { html, csp }
  const attribute = ` nonce="${nonce}"`
  const hashes = new Set<string>()
  for (const [, attributes, content] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (attributes.includes(attribute) && content)
      hashes.add(`'sha256-${crypto.createHash('sha256').update(content).digest('base64')}'`)
  }
  return {
    html: html.replaceAll(attribute, ''),
    csp: csp.replace(`'nonce-${nonce}'`, [...hashes].join(' ')).replace(/ {2,}/g, ' '),
  }
}

const gzip = promisify(zlib.gzip)
const brotli = promisify(zlib.brotliCompress)

/** The app's answer as a page to keep, compressed ahead; or the answer to send as it is. */
export async function keepable(response: Response, version: string, now = Date.now()): Promise<KeptPage | Response> {
  if (!mayBeKept(response)) return response
  const sent = Buffer.from(await response.arrayBuffer())
  const encoding = response.headers.get('content-encoding')
  if (sent.byteLength > MAX_BODY_BYTES) return new Response(sent, response)
  let identity = decoded(sent, encoding)
  if (identity.byteLength > MAX_BODY_BYTES) return new Response(sent, response)
  const headers = new Headers(response.headers)
  const vary = (headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name && name.toLowerCase() !== 'accept-encoding')
  for (const name of ['content-length', 'content-encoding', 'date', 'vary']) headers.delete(name)
  if ((headers.get('content-type') ?? '').startsWith('text/html')) {
    const page = hashesForNonce(identity.toString(), headers.get('content-security-policy') ?? '')
    identity = Buffer.from(page.html)
    if (page.csp) headers.set('content-security-policy', page.csp)
  }
  const compressible = identity.byteLength >= 1024
  return {
    version,
    storedAt: now,
    status: response.status,
    headers: [...headers],
    vary,
    identity,
    gzip: compressible ? await gzip(identity, { level: 9 }) : undefined,
    br: compressible ? await brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }) : undefined,
  }
}

/** What to send for a kept page: its headers and its body in the best encoding the client takes. */
export function answerOf(page: KeptPage, acceptEncoding: string | undefined, state: 'hit' | 'miss') {
  const [body, encoding] = bestEncoding(page, acceptEncoding)
  const headers: [string, string][] = [...page.headers, ['x-page-cache', state], ['content-length', String(body.byteLength)]]
  const vary = page.gzip ? [...page.vary, 'Accept-Encoding'] : page.vary
  if (vary.length) headers.push(['vary', vary.join(', ')])
  if (encoding) headers.push(['content-encoding', encoding])
  return { status: page.status, headers, body }
}
