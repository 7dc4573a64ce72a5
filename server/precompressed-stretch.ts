import { promisify } from 'node:util'
import zlib from 'node:zlib'

const deflateRawOnThePool = promisify(zlib.deflateRaw)

// ID1, ID2, deflate, no flags, no time, no extra flags, Unix (RFC 1952).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
/** Enough of the stretch's start to find it; the rest is compared byte for byte. */
const FINDER_BYTES = 64
/**
 * Up to this many bytes of its own, an answer is deflated on the main thread. At the level for one
 * request (3) the thread pool costs the machine three times the work, and the main thread about
 * as much as deflating there up to about 30 KB: the home page's 29 KB 160–220 µs on the main
 * thread against 220–260 µs there and 640–780 µs in all through the pool. Above it the pool costs
 * the main thread, which bounds one process's rate, less (the marketplace's 38 KB 220–260 against
 * 290–360 µs), and one large answer cannot hold up every other request (docs/performance.md,
 * 2026-11-29, "night").
 */
const MAIN_THREAD_BYTES = 32 * 1024

/**
 * A stretch of bytes that many answers carry word for word (the public stylesheet, two thirds of
 * an anonymous visitor's page), deflated once at the best level. An answer that carries it is
 * gzipped around it: the bytes before and after it are deflated on their own, each ending on a
 * byte boundary, and the three pieces are joined into one stream, as pigz joins its blocks. No
 * piece refers back into another, so each decodes on its own; the checksum is the whole body's.
 */
export class PrecompressedStretch {
  private readonly bytes: Buffer
  private readonly deflated: Buffer

  constructor(text: string) {
    this.bytes = Buffer.from(text)
    this.deflated = zlib.deflateRawSync(this.bytes, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH })
  }

  /** Where `body` carries the stretch (its first place that has all of it), or -1. */
  private find(body: Buffer): number {
    if (this.bytes.byteLength < FINDER_BYTES) return -1
    const start = this.bytes.subarray(0, FINDER_BYTES)
    for (let at = body.indexOf(start); at >= 0; at = body.indexOf(start, at + 1)) {
      if (body.subarray(at, at + this.bytes.byteLength).equals(this.bytes)) return at
    }
    return -1
  }

  /** Whether `body` carries the stretch. */
  carries(body: Buffer): boolean {
    return this.find(body) >= 0
  }

  /** `body` gzipped, its own bytes at `level`; null when it does not carry the stretch. */
  async gzip(body: Buffer, level: number): Promise<Buffer | null> {
    const at = this.find(body)
    if (at < 0) return null
    const ownBytes = body.byteLength - this.bytes.byteLength
    const deflate = (piece: Buffer, options: zlib.ZlibOptions) =>
      ownBytes <= MAIN_THREAD_BYTES ? zlib.deflateRawSync(piece, options) : deflateRawOnThePool(piece, options)
    const [before, after] = await Promise.all([
      deflate(body.subarray(0, at), { level, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      deflate(body.subarray(at + this.bytes.byteLength), { level }),
    ])
    const trailer = Buffer.alloc(8)
    trailer.writeUInt32LE(zlib.crc32(body), 0)
    trailer.writeUInt32LE(body.byteLength % 2 ** 32, 4)
    return Buffer.concat([GZIP_HEADER, before, this.deflated, after, trailer])
  }
}

const stretchesOfBuilds = new WeakMap<object, PrecompressedStretch>()

/** The public stylesheet of `build`, compressed ahead once for the app and the page cache alike. */
export function compressedStylesheetOf(build: { entry: { module: { publicStylesheet: string } } }): PrecompressedStretch {
  let stretch = stretchesOfBuilds.get(build)
  if (!stretch) {
    stretch = new PrecompressedStretch(build.entry.module.publicStylesheet)
    stretchesOfBuilds.set(build, stretch)
  }
  return stretch
}
