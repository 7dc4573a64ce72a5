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

/** A whole page, with its stylesheet inside. */
function expectWholePage(html: string) {
  expect(html.startsWith('<!DOCTYPE html>')).toBe(true)
  expect(html.endsWith('</html>')).toBe(true)
  expect(html).toContain('<style id="public-stylesheet">')
}

for (const path of ['/about', '/', '/marketplace', '/search?q=bread']) {
  it(`sends ${path} in brotli to a browser, and gzip that GNU gzip reads to a client that takes only gzip`, async () => {
    const plain = await getRaw(server, path, { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expectWholePage(plain.body.toString())

    const browser = await getRaw(server, path, { 'accept-encoding': 'gzip, deflate, br' })
    expect(browser.headers['content-encoding']).toBe('br')
    expect(browser.headers['content-length']).toBe(String(browser.body.byteLength))
    expectWholePage(zlib.brotliDecompressSync(browser.body).toString())
    expect(browser.body.byteLength).toBeLessThan(plain.body.byteLength / 3)

    const gzipOnly = await getRaw(server, path, { 'accept-encoding': 'gzip' })
    expect(gzipOnly.headers['content-encoding']).toBe('gzip')
    expectWholePage(gunzipWithGzip(gzipOnly.body))
  })
}

it('compresses a signed-in page too, which links the stylesheet instead', async () => {
  const cookie = await signIn(server)
  const admin = await getRaw(server, '/admin/news', { 'accept-encoding': 'gzip, deflate, br', cookie })
  expect(admin.headers['content-encoding']).toBe('br')
  expect(zlib.brotliDecompressSync(admin.body).toString()).not.toContain('<style id="public-stylesheet">')
})
