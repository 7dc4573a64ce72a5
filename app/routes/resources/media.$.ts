import crypto from 'node:crypto'
import type { Route } from './+types/media.$'
import { isValidStorageKey, PRIVATE_KEY_PREFIX, storage, type ByteRange } from '~/platform/storage/index.server'
import { CACHE_PROFILES, namesTag } from '~/platform/http-caching'
import { isFileOf, isPublicFile } from '~/platform/media/file-visibility.server'
import { getOptionalUser, type RequestAndContext } from '~/platform/auth.server'
import { resolvePreviewLink } from '~/modules/previews/preview-links.server'
import { previewTokensOfFileRequest } from '~/modules/previews/preview-page.server'

const NOT_FOUND = () =>
  new Response('Not found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': CACHE_PROFILES.personal },
  })

type RangeRequest = { kind: 'whole' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' }

/**
 * Reads a `Range: bytes=…` header against the file size (RFC 9110). A header we do not
 * understand, or one asking for several ranges, is ignored and the whole file is sent.
 */
function parseRange(header: string | null, size: number): RangeRequest {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/)
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' }
  const [, first, last] = match
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (start >= size || (last !== '' && Number(last) < start)) return { kind: 'unsatisfiable' }
  return { kind: 'range', range: { start, end } }
}

/** A key's content never changes, so the key and the size identify it on every storage driver. */
function entityTagOf(key: string, size: number): string {
  return `"${crypto.createHash('sha256').update(key).digest('base64url').slice(0, 16)}-${size.toString(36)}"`
}

/**
 * Who may fetch the file at `key`, and how long it may be kept: anyone, for a while, when it
 * belongs to something public now; otherwise only someone signed in or the holder of its item's
 * preview link, and kept nowhere (platform/media/file-visibility.server.ts).
 */
async function cacheControlFor(key: string, args: RequestAndContext): Promise<string | null> {
  if (await isPublicFile(key)) return CACHE_PROFILES.fileOfPublicItem
  if (await getOptionalUser(args)) return CACHE_PROFILES.personal
  for (const token of previewTokensOfFileRequest(args.request)) {
    const link = await resolvePreviewLink(token)
    if (link.status === 'preview' && (await isFileOf(link.table, link.itemId, key))) return CACHE_PROFILES.personal
  }
  return null
}

/** Uploaded files, to those who may see them. Keys are unique per content, so the key and size are its tag. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const key = params['*'] ?? ''
  if (!isValidStorageKey(key) || key.startsWith(PRIVATE_KEY_PREFIX)) return NOT_FOUND()
  const cacheControl = await cacheControlFor(key, { request, context })
  if (!cacheControl) return NOT_FOUND()
  const info = await storage.stat(key)
  if (!info) return NOT_FOUND()

  const etag = entityTagOf(key, info.size)
  const cacheHeaders = { ETag: etag, 'Cache-Control': cacheControl }
  const ifNoneMatch = request.headers.get('if-none-match')
  if (ifNoneMatch && namesTag(ifNoneMatch, etag)) return new Response(null, { status: 304, headers: cacheHeaders })

  // A range of another version than the one the client holds would corrupt its copy: send it all.
  const ifRange = request.headers.get('if-range')
  const rangeHeader = ifRange && ifRange !== etag ? null : request.headers.get('range')
  const requested = parseRange(rangeHeader, info.size)
  if (requested.kind === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${info.size}` } })
  }
  const headers = new Headers({
    ...cacheHeaders,
    'Content-Type': info.contentType,
    'X-Content-Type-Options': 'nosniff',
    'Accept-Ranges': 'bytes',
  })
  const range = requested.kind === 'range' ? requested.range : undefined
  const object = await storage.get(key, range)
  if (!object) return NOT_FOUND()
  if (range) {
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`)
    headers.set('Content-Length', String(range.end - range.start + 1))
  } else {
    headers.set('Content-Length', String(info.size))
  }
  const body = request.method === 'HEAD' ? null : object.body
  if (!body) await object.body.cancel()
  return new Response(body, { status: range ? 206 : 200, headers })
}
