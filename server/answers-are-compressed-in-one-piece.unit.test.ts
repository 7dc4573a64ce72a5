import zlib from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { compressAnswer } from './compression'

const page = `<!doctype html><p>${'A page with enough text to be worth compressing. '.repeat(60)}</p>`

/** An app that answers `body` with these headers, compressed as the site's app compresses. */
function appAnswering(body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) {
  const app = new Hono()
  app.use(async (c, next) => {
    await next()
    await compressAnswer(c)
  })
  app.all('*', () => new Response(body, { headers }))
  return app
}

async function ask(app: Hono, acceptEncoding: string, method = 'GET') {
  const res = await app.request('/', { method, headers: { 'accept-encoding': acceptEncoding } })
  return { res, body: Buffer.from(await res.arrayBuffer()) }
}

describe('an answer made for one request', () => {
  it('is compressed whole in the encoding the client prefers, brotli first, with its length', async () => {
    const app = appAnswering(page, { 'content-type': 'text/html; charset=utf-8', vary: 'Cookie' })
    const br = await ask(app, 'gzip, deflate, br')
    expect(br.res.headers.get('content-encoding')).toBe('br')
    expect(br.res.headers.get('content-length')).toBe(String(br.body.byteLength))
    expect(br.res.headers.get('vary')).toBe('Cookie, Accept-Encoding')
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(page)

    const gzip = await ask(app, 'gzip, br;q=0')
    expect(gzip.res.headers.get('content-encoding')).toBe('gzip')
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(page)

    const plain = await ask(app, 'identity')
    expect(plain.res.headers.get('content-encoding')).toBeNull()
    expect(plain.body.toString()).toBe(page)
  })

  it('is sent as it is when it is small, not text, marked no-transform, or a HEAD', async () => {
    const cases = [
      appAnswering('<p>short</p>', { 'content-type': 'text/html' }),
      appAnswering(new Uint8Array(4096), { 'content-type': 'image/webp' }),
      appAnswering(page, { 'content-type': 'text/html', 'cache-control': 'no-transform' }),
    ]
    for (const app of cases) expect((await ask(app, 'br')).res.headers.get('content-encoding')).toBeNull()
    const head = await ask(appAnswering(page, { 'content-type': 'text/html' }), 'br', 'HEAD')
    expect(head.res.headers.get('content-encoding')).toBeNull()
  })
})
