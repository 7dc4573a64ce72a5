import { spawnSync } from 'node:child_process'
import zlib from 'node:zlib'
import { afterAll, expect, it } from 'vitest'
import { getRaw, signIn } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// Without the page cache every anonymous page is made and compressed for its one visitor.
const server = await startTestServer({ PAGE_CACHE_SECONDS: '0' })
afterAll(() => server.stop())

/** GNU gzip, an outside decoder: what it makes of `bytes`, or its complaint. */
function gunzipWithGzip(bytes: Buffer): string {
  const result = spawnSync('gzip', ['-dc'], { input: bytes, maxBuffer: 16 * 1024 * 1024 })
  if (result.error) throw new Error(`gzip could not be run (apt-get install gzip): ${result.error.message}`)
  if (result.status !== 0) throw new Error(`gzip refused the page: ${result.stderr.toString()}`)
  return result.stdout.toString()
}

for (const path of ['/about', '/', '/marketplace', '/search?q=bread']) {
  it(`sends ${path} gzipped around the stylesheet compressed ahead, about as small as brotli 4, to a browser that takes both`, async () => {
    const plain = await getRaw(server, path, { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.toString()).toContain('<style id="public-stylesheet">')

    const sent = await getRaw(server, path, { 'accept-encoding': 'gzip, deflate, br' })
    expect(sent.headers['content-encoding']).toBe('gzip')
    expect(sent.headers['content-length']).toBe(String(sent.body.byteLength))
    const decoded = zlib.gunzipSync(sent.body).toString()
    expect(gunzipWithGzip(sent.body)).toBe(decoded)
    // Each answer has its own nonce; everything else is the page as sent uncompressed.
    const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""')
    expect(withoutNonces(decoded)).toBe(withoutNonces(plain.body.toString()))

    const brotli4 = zlib.brotliCompressSync(plain.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    // Its own bytes at the level for one request: at most 3 % more than brotli 4 for a fifth of its time.
    expect(sent.body.byteLength).toBeLessThan(brotli4.byteLength * 1.03)
    expect(sent.body.byteLength).toBeLessThan(zlib.gzipSync(plain.body, { level: 3 }).byteLength * 0.95)
  })
}

it('keeps brotli for a client that takes no gzip, and for pages without the stylesheet', async () => {
  const brotliOnly = await getRaw(server, '/about', { 'accept-encoding': 'br' })
  expect(brotliOnly.headers['content-encoding']).toBe('br')
  expect(zlib.brotliDecompressSync(brotliOnly.body).toString()).toContain('<style id="public-stylesheet">')

  // A signed-in page links the stylesheet: nothing in it was compressed ahead.
  const cookie = await signIn(server)
  const admin = await getRaw(server, '/admin/news', { 'accept-encoding': 'gzip, deflate, br', cookie })
  expect(admin.headers['content-encoding']).toBe('br')
  expect(zlib.brotliDecompressSync(admin.body).toString()).not.toContain('<style id="public-stylesheet">')
})
