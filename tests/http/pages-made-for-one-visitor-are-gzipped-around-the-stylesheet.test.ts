import { spawnSync } from 'node:child_process'
import http from 'node:http'
import zlib from 'node:zlib'
import { afterAll, expect, it } from 'vitest'
import { signIn } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// Without the page cache every anonymous page is made and compressed for its one visitor.
const server = await startTestServer({ PAGE_CACHE_SECONDS: '0' })
afterAll(() => server.stop())

/** The bytes as sent, undecoded (fetch would decode them), with their Content-Encoding. */
function getRaw(path: string, headers: Record<string, string>): Promise<{ encoding?: string; length?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(server.url + path, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            encoding: res.headers['content-encoding'],
            length: res.headers['content-length'],
            body: Buffer.concat(chunks),
          }),
        )
      })
      .on('error', reject)
  })
}

/** GNU gzip, an outside decoder: what it makes of `bytes`, or its complaint. */
function gunzipWithGzip(bytes: Buffer): string {
  const result = spawnSync('gzip', ['-dc'], { input: bytes, maxBuffer: 16 * 1024 * 1024 })
  if (result.error) throw new Error(`gzip could not be run (apt-get install gzip): ${result.error.message}`)
  if (result.status !== 0) throw new Error(`gzip refused the page: ${result.stderr.toString()}`)
  return result.stdout.toString()
}

for (const path of ['/about', '/', '/marketplace', '/search?q=bread']) {
  it(`sends ${path} gzipped around the stylesheet compressed ahead, smaller than brotli 4, to a browser that takes both`, async () => {
    const plain = await getRaw(path, { 'accept-encoding': 'identity' })
    expect(plain.encoding).toBeUndefined()
    expect(plain.body.toString()).toContain('<style id="public-stylesheet">')

    const sent = await getRaw(path, { 'accept-encoding': 'gzip, deflate, br' })
    expect(sent.encoding).toBe('gzip')
    expect(sent.length).toBe(String(sent.body.byteLength))
    const decoded = zlib.gunzipSync(sent.body).toString()
    expect(gunzipWithGzip(sent.body)).toBe(decoded)
    // Each answer has its own nonce; everything else is the page as sent uncompressed.
    const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""')
    expect(withoutNonces(decoded)).toBe(withoutNonces(plain.body.toString()))

    const brotli4 = zlib.brotliCompressSync(plain.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    expect(sent.body.byteLength).toBeLessThan(brotli4.byteLength)
  })
}

it('keeps brotli for a client that takes no gzip, and for pages without the stylesheet', async () => {
  const brotliOnly = await getRaw('/about', { 'accept-encoding': 'br' })
  expect(brotliOnly.encoding).toBe('br')
  expect(zlib.brotliDecompressSync(brotliOnly.body).toString()).toContain('<style id="public-stylesheet">')

  // A signed-in page links the stylesheet: nothing in it was compressed ahead.
  const cookie = await signIn(server)
  const admin = await getRaw('/admin/news', { 'accept-encoding': 'gzip, deflate, br', cookie })
  expect(admin.encoding).toBe('br')
  expect(zlib.brotliDecompressSync(admin.body).toString()).not.toContain('<style id="public-stylesheet">')
})
