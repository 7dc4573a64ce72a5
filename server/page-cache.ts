import crypto from 'node:crypto'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { env } from '../app/platform/env.server'
import { CACHE_PROFILES, namesTag } from '../app/platform/http-caching'
import { savesData } from '../app/platform/save-data'
import { bestEncoding } from './accept-encoding'
import { COMPRESS_FROM_BYTES, compressBody, encodingFor, type Encoding } from './compression'
import { entityTagOf } from './static-files'

/**
 * Pages for anonymous visitors, kept in memory (docs/decisions/017-page-cache.md): the public 200
 * answer to a GET without a session cookie, keyed by its address with only the query parameters
 * its routes declare, served byte for byte while the content version it was made with is current
 * (and for PAGE_CACHE_SECONDS at most), compressed once per encoding a client takes.
 */

const CACHEABLE_TYPES = /^(text\/html|text\/x-script|application\/json|application\/xml|application\/rss\+xml|text\/calendar)\b/
/** All kept pages together, with their compressed copies, headers and keys. */
const MAX_BYTES = 32 * 1024 * 1024
/** A larger answer is sent but not kept. */
const MAX_PAGE_BYTES = 1024 * 1024

export interface KeptPage {
  version: string
  storedAt: number
  status: number
  /** The answer's headers, without those of its encoding, length and Vary. */
  headers: [string, string][]
  /** What the page depends on besides the URL (e.g. Cookie); Accept-Encoding is added per answer. */
  vary: string[]
  /** Names these bytes: a browser or cache that holds them is answered 304 (weak: each encoding is the same page). */
  etag: string
  identity: Buffer
  /** Compressed copies, each made when a client first takes its encoding. */
  encoded: Partial<Record<Encoding, Buffer>>
}

export interface PageCache {
  /**
   * The kept page for `key` if it is current. `version` null: the database cannot say (it is
   * down or locked), and a page kept less than the maximum age is better than an error page.
   */
  get(key: string, version: string | null): KeptPage | null
  /** Keeps `page` for `key` (unless it is larger than a page may be), letting the least recently used go. */
  set(key: string, page: KeptPage): void
  /** Counts a compressed copy made since `page` was kept for `key` (nothing if it is no longer kept). */
  grew(key: string, page: KeptPage): void
}

/** What a kept page holds in memory, near enough (a header's characters count as bytes). */
function sizeOf(key: string, page: KeptPage): number {
  const headers = page.headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0)
  const encoded = Object.values(page.encoded).reduce((sum, body) => sum + body.byteLength, 0)
  return key.length + headers + page.identity.byteLength + encoded
}

export function createPageCache(
  maxAgeSeconds: number,
  { maxBytes = MAX_BYTES, now = Date.now }: { maxBytes?: number; now?: () => number } = {},
): PageCache {
  // A Map keeps insertion order: the first key is the least recently used.
  const entries = new Map<string, { page: KeptPage; bytes: number }>()
  let bytes = 0

  function forget(key: string) {
    bytes -= entries.get(key)?.bytes ?? 0
    entries.delete(key)
  }

  function set(key: string, page: KeptPage) {
    forget(key)
    if (page.identity.byteLength > MAX_PAGE_BYTES) return
    const size = sizeOf(key, page)
    entries.set(key, { page, bytes: size })
    bytes += size
    for (const oldest of entries.keys()) {
      if (bytes <= maxBytes) break
      forget(oldest)
    }
  }

  return {
    get(key, version) {
      const entry = entries.get(key)
      if (!entry) return null
      const { page } = entry
      if ((version !== null && page.version !== version) || now() - page.storedAt > maxAgeSeconds * 1000) {
        forget(key)
        return null
      }
      entries.delete(key)
      entries.set(key, entry)
      return page
    },
    set,
    grew(key, page) {
      if (entries.get(key)?.page === page) set(key, page)
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
 * routes read (`pathAndQuery`, from server/declared-query.ts), the address it was reached on,
 * which its links name, and whether its visitor saves data (two kinds of page at most).
 */
export function pageKey(incoming: IncomingMessage, pathAndQuery: string): string {
  const forwardedProto = env.TRUST_PROXY ? header(incoming, 'x-forwarded-proto') : ''
  const { localAddress, localPort } = incoming.socket
  const light = savesData(header(incoming, 'save-data'), header(incoming, 'ect')) ? 'light' : ''
  return [
    header(incoming, 'host'),
    forwardedProto,
    localAddress,
    localPort,
    pathAndQuery,
    header(incoming, 'cookie'),
    light,
  ].join(' ')
}

/** Whether the app's answer may be kept: the app then leaves it uncompressed (server/app.ts). */
export function mayBeKept(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? ''
  return (
    response.status === 200 &&
    !response.headers.has('set-cookie') &&
    !response.headers.has('content-encoding') &&
    !/private|no-store/.test(cacheControl) &&
    CACHEABLE_TYPES.test(response.headers.get('content-type') ?? '') &&
    Number(response.headers.get('content-length') ?? 0) <= MAX_PAGE_BYTES
  )
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

/** The app's answer as a page to keep; or the answer to send as it is. */
export async function keepable(response: Response, version: string, now = Date.now()): Promise<KeptPage | Response> {
  if (!mayBeKept(response)) return response
  let identity = Buffer.from(await response.arrayBuffer())
  const headers = new Headers(response.headers)
  const vary = (headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name && name.toLowerCase() !== 'accept-encoding')
  for (const name of ['content-length', 'date', 'vary', 'etag']) headers.delete(name)
  // A page kept for every anonymous visitor, its nonce replaced below, may be kept by any cache
  // that asks again first; a visitor with a cookie of the site's is kept apart (Vary).
  if (!headers.has('cache-control')) headers.set('cache-control', CACHE_PROFILES.publicPage)
  if (!vary.some((name) => name.toLowerCase() === 'cookie')) vary.push('Cookie')
  if ((headers.get('content-type') ?? '').startsWith('text/html')) {
    const page = hashesForNonce(identity.toString(), headers.get('content-security-policy') ?? '')
    identity = Buffer.from(page.html)
    if (page.csp) headers.set('content-security-policy', page.csp)
  }
  const etag = `W/${entityTagOf(identity)}`
  return { version, storedAt: now, status: response.status, headers: [...headers], vary, etag, identity, encoded: {} }
}

/** Copies of a kept page being made, so that a burst of visitors makes each one once. */
const copiesBeingMade = new WeakMap<KeptPage, Map<Encoding, Promise<void>>>()

/** The copy of `page` this client is sent, of those it has: brotli, else gzip, else the page as it is. */
function copyFor(page: KeptPage, acceptEncoding: string | undefined) {
  return bestEncoding({ identity: page.identity, ...page.encoded }, acceptEncoding)
}

/**
 * Makes the compressed copy of `page` that this client takes best, if no client took it before
 * (off the main thread), calling `grew` once it is kept with the page. A client that takes a copy
 * the page already has is sent that one while the copy it prefers is made.
 */
export async function encodeFor(page: KeptPage, acceptEncoding: string | undefined, grew: () => void): Promise<void> {
  const encoding = encodingFor(acceptEncoding)
  if (!encoding || page.identity.byteLength < COMPRESS_FROM_BYTES || page.encoded[encoding]) return
  const sendable = copyFor(page, acceptEncoding)[1] !== null
  let making = copiesBeingMade.get(page)
  if (!making) copiesBeingMade.set(page, (making = new Map()))
  let made = making.get(encoding)
  if (!made) {
    made = compressBody(page.identity, encoding, 'kept')
      .then((copy) => {
        page.encoded[encoding] = copy
        grew()
      })
      .finally(() => making.delete(encoding))
    // Whoever waits for it sees a failure; one made in the background must not end the process.
    made.catch(() => {})
    making.set(encoding, made)
  }
  if (!sendable) await made
}

/** What a client asks of a kept page: the encodings it takes, and the copies it holds already. */
export type Asked = Pick<IncomingHttpHeaders, 'accept-encoding' | 'if-none-match'>

/** Whether the client holds this page already (its If-None-Match names the page's tag). */
export function holdsPage(page: KeptPage, asked: Asked): boolean {
  return asked['if-none-match'] !== undefined && namesTag(asked['if-none-match'], page.etag)
}

/**
 * What to send for a kept page: 304 with its validators to a client that holds it already, else
 * its headers and its body in the encoding the client takes (see encodeFor).
 */
export function answerOf(page: KeptPage, asked: Asked, state: 'hit' | 'miss') {
  const vary = page.identity.byteLength >= COMPRESS_FROM_BYTES ? [...page.vary, 'Accept-Encoding'] : page.vary
  const validators: [string, string][] = [
    ['etag', page.etag],
    ['x-page-cache', state],
  ]
  if (vary.length) validators.push(['vary', vary.join(', ')])
  if (holdsPage(page, asked)) {
    const cacheControl = page.headers.filter(([name]) => name === 'cache-control')
    return { status: 304, headers: [...cacheControl, ...validators], body: null }
  }
  const [body, encoding] = copyFor(page, asked['accept-encoding'])
  const headers: [string, string][] = [...page.headers, ...validators, ['content-length', String(body.byteLength)]]
  if (encoding) headers.push(['content-encoding', encoding])
  return { status: page.status, headers, body }
}
