import crypto from 'node:crypto'
import fs from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import { bestEncoding } from './accept-encoding'
import { CACHE_PROFILES, namesTag } from '../app/platform/http-caching'

/**
 * The built client files (hashed assets, favicon, preview image), read once at start and served
 * from memory: compressed ahead (the build writes `.br` and `.gz` beside each asset; small public
 * files are gzipped here), with an ETag so that a browser's copy is confirmed with a 304.
 */

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}
const COMPRESSIBLE = /^(text\/|image\/svg|application\/(json|manifest))/

export interface StaticFile {
  type: string
  etag: string
  cacheControl: string
  identity: Buffer
  gzip?: Buffer
  br?: Buffer
}

/** A strong entity tag naming exactly these bytes. */
export function entityTagOf(bytes: Buffer): string {
  return `"${crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`
}

function readIfPresent(file: string): Buffer | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined
}

function cacheControlOf(urlPath: string): string {
  // Hashed file names change with their content; the others keep their name.
  if (urlPath.startsWith('/assets/')) return CACHE_PROFILES.immutable
  // The service worker is checked at every visit, so a new one takes over at once.
  if (urlPath === '/sw.js') return CACHE_PROFILES.checkedEachVisit
  return CACHE_PROFILES.named
}

/** Every file under `dir` by its URL path, with its compressed forms. */
export function loadStaticFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>()
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue
    const file = path.join(entry.parentPath, entry.name)
    const urlPath = `/${path.relative(dir, file).split(path.sep).join('/')}`
    const type = TYPES[path.extname(entry.name).toLowerCase()] ?? 'application/octet-stream'
    const identity = fs.readFileSync(file)
    const compressible = COMPRESSIBLE.test(type) && identity.length > 256
    files.set(urlPath, {
      type,
      etag: entityTagOf(identity),
      cacheControl: cacheControlOf(urlPath),
      identity,
      gzip: compressible ? (readIfPresent(`${file}.gz`) ?? zlib.gzipSync(identity)) : undefined,
      br: compressible ? readIfPresent(`${file}.br`) : undefined,
    })
  }
  return files
}

/**
 * Sends the built file the request names, if there is one, and says whether it did. Written
 * straight to the socket, ahead of the app: the headers a script or image needs are set here.
 */
export function answerStaticFile(files: Map<string, StaticFile>, incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') return false
  const file = files.get((incoming.url ?? '').split('?')[0])
  if (!file) return false
  const headers: Record<string, string> = {
    'Content-Type': file.type,
    'Cache-Control': file.cacheControl,
    ETag: file.etag,
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
  }
  const ifNoneMatch = incoming.headers['if-none-match']
  if (ifNoneMatch && namesTag(ifNoneMatch, file.etag)) {
    outgoing.writeHead(304, headers).end()
    return true
  }
  const [body, encoding] = bestEncoding(file, incoming.headers['accept-encoding'])
  if (encoding) headers['Content-Encoding'] = encoding
  headers['Content-Length'] = String(body.length)
  outgoing.writeHead(200, headers)
  outgoing.end(incoming.method === 'HEAD' ? undefined : body)
  return true
}
