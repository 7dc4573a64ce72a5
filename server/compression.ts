import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { Context } from 'hono'
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress'
import { acceptsEncoding } from './accept-encoding'

/**
 * How answers are compressed: in one piece, off the main thread, at a level chosen for how often
 * the bytes are sent. Pages the page cache keeps are compressed once and sent many times; every
 * other answer (a signed-in user's page, a search, any page without the cache) is compressed for
 * one request (docs/decisions/037-fast-without-the-page-cache.md).
 */

export type Encoding = 'br' | 'gzip'
export type CompressionUse = 'kept' | 'once'

/** Smaller answers are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_FROM_BYTES = 1024

/** The encoding for a client that sends this Accept-Encoding: brotli, else gzip, else none. */
export function encodingFor(acceptEncoding: string | undefined): Encoding | null {
  if (acceptsEncoding(acceptEncoding, 'br')) return 'br'
  return acceptsEncoding(acceptEncoding, 'gzip') ? 'gzip' : null
}

const brotliCompress = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** The smallest brotli window that holds the whole body (a window is what the encoder sets up first). */
function brotliWindowBits(bytes: number): number {
  const { BROTLI_MIN_WINDOW_BITS: min, BROTLI_MAX_WINDOW_BITS: max } = zlib.constants
  return Math.min(max, Math.max(min, Math.ceil(Math.log2(bytes + 16))))
}

// The home page (85 KB) on this machine: brotli 5 makes 16.4 KB in 2.2 ms, brotli 4 17.8 KB in
// 1.3 ms; gzip 6 17.5 KB in 1.7 ms, gzip 3 19.6 KB in 0.9 ms. Brotli 9 saves 2 % more than 5 in
// 34 ms: the best levels would make a page cost more than rendering it.
const LEVELS: Record<CompressionUse, Record<Encoding, number>> = {
  kept: { br: 5, gzip: 6 },
  once: { br: 4, gzip: 3 },
}

/** `body` compressed in `encoding`, on the thread pool. */
export function compressBody(body: Buffer, encoding: Encoding, use: CompressionUse): Promise<Buffer> {
  const level = LEVELS[use][encoding]
  if (encoding === 'gzip') return gzip(body, { level })
  // A window of the body's size instead of the default 4 MB makes the same bytes and costs the
  // main thread a third as much to set up.
  return brotliCompress(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: level,
      [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.byteLength),
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
    },
  })
}

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i

/**
 * Compresses the app's answer for this request, if it is text of some size and the client takes
 * an encoding. The answer is read whole first: the app makes its pages, feeds and JSON in memory
 * anyway, and one call to zlib costs a fraction of feeding it a stream of small pieces.
 */
export async function compressAnswer(c: Context): Promise<void> {
  const { res } = c
  if (
    c.req.method === 'HEAD' ||
    !res.body ||
    res.status === 206 ||
    res.headers.has('content-encoding') ||
    res.headers.has('transfer-encoding') ||
    !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(res.headers.get('content-type') ?? '') ||
    NO_TRANSFORM.test(res.headers.get('cache-control') ?? '') ||
    Number(res.headers.get('content-length') ?? Infinity) < COMPRESS_FROM_BYTES
  ) {
    return
  }
  const vary = res.headers.get('vary')
  if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '')) {
    res.headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
  }
  const encoding = encodingFor(c.req.header('accept-encoding'))
  if (!encoding) return
  const body = Buffer.from(await res.arrayBuffer())
  const compressed = body.byteLength < COMPRESS_FROM_BYTES ? null : await compressBody(body, encoding, 'once')
  const sent = (compressed ?? body) as Buffer<ArrayBuffer>
  // The new answer takes the old one's headers object; the body's own headers are set after. The
  // old answer is let go first: Hono would otherwise wrap the new one once more to copy them over.
  c.res = undefined
  c.res = new Response(sent, { status: res.status, headers: res.headers })
  c.res.headers.set('content-length', String(sent.byteLength))
  if (!compressed) return
  c.res.headers.set('content-encoding', encoding)
  const etag = c.res.headers.get('etag')
  if (etag && !etag.startsWith('W/')) c.res.headers.set('etag', `W/${etag}`)
}
