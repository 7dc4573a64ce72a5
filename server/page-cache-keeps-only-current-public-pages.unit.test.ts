import crypto from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it, vi } from 'vitest'
import { answerOf, createPageCache, encodeFor, isCacheableRequest, keepable, type KeptPage } from './page-cache'

function page(body: string | Buffer, headers: Record<string, string> = {}, status = 200) {
  return new Response(typeof body === 'string' ? body : new Uint8Array(body), {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  })
}

async function kept(response: Response, version = 'v', now?: number): Promise<KeptPage> {
  const result = await keepable(response, version, now)
  if (result instanceof Response) throw new Error('not kept')
  return result
}

describe('the page cache', () => {
  it('keeps a page for its content version and age only', async () => {
    let now = 0
    const cache = createPageCache(60, { now: () => now })
    cache.set('/', await kept(page('one'), 'v1', now))
    expect(cache.get('/', 'v1')!.identity.toString()).toBe('one')
    now = 61_000
    expect(cache.get('/', 'v1')).toBeNull()
    cache.set('/', await kept(page('two'), 'v1', now))
    expect(cache.get('/', 'v2')).toBeNull()
    // Gone once its version was found out of date, even when the database cannot be asked later.
    expect(cache.get('/', null)).toBeNull()
  })

  it('serves a page it has when the database cannot tell the version', async () => {
    const cache = createPageCache(60)
    cache.set('/', await kept(page('kept')))
    expect(cache.get('/', null)!.identity.toString()).toBe('kept')
  })

  it('keeps no answer that is personal, an error, a media file, already compressed or too big', async () => {
    const refused = [
      page('x', { 'set-cookie': 'a=b' }),
      page('x', { 'cache-control': 'private, no-store' }),
      page('x', { 'cache-control': 'no-store' }),
      page('x', {}, 404),
      page('x', { 'content-type': 'image/jpeg' }),
      page(gzipSync('x'), { 'content-encoding': 'gzip' }),
      page('x', { 'content-length': String(1024 * 1024 + 1) }),
    ]
    for (const [index, response] of refused.entries()) {
      const sent = await keepable(response, 'v')
      expect(sent, String(index)).toBeInstanceOf(Response)
      expect((sent as Response).status).toBe(response.status)
    }
    // Made without saying its length: sent, but not kept.
    const cache = createPageCache(60)
    cache.set('/big', await kept(page('x'.repeat(1024 * 1024 + 1))))
    expect(cache.get('/big', 'v')).toBeNull()
  })

  it('holds no more bytes than it may, forgetting the least recently used pages first', async () => {
    const cache = createPageCache(60, { maxBytes: 10_000 })
    const body = 'x'.repeat(2_000)
    for (let i = 0; i < 4; i++) cache.set(`/${i}`, await kept(page(body)))
    cache.get('/0', 'v') // used again: now the most recent
    cache.set('/4', await kept(page(body)))
    expect(['/0', '/1', '/2', '/3', '/4'].filter((key) => cache.get(key, 'v'))).toEqual(['/0', '/2', '/3', '/4'])
    // A compressed copy made later counts too.
    const grown = cache.get('/2', 'v')!
    grown.encoded.gzip = Buffer.alloc(3_000)
    cache.grew('/2', grown)
    expect(['/0', '/2', '/3', '/4'].filter((key) => cache.get(key, 'v'))).toEqual(['/2', '/3', '/4'])
  })

  it('is asked only for GETs without a session, and never for media or ranges', () => {
    const request = (url: string, method = 'GET', headers: Record<string, string> = {}) =>
      ({ url, method, headers }) as unknown as IncomingMessage
    expect(isCacheableRequest(request('/news'), 'sid')).toBe(true)
    expect(isCacheableRequest(request('/news', 'GET', { cookie: 'marketplace-view=grid' }), 'sid')).toBe(true)
    expect(isCacheableRequest(request('/news', 'GET', { cookie: 'a=1; sid=abc' }), 'sid')).toBe(false)
    expect(isCacheableRequest(request('/news', 'POST'), 'sid')).toBe(false)
    expect(isCacheableRequest(request('/news', 'HEAD'), 'sid')).toBe(false)
    expect(isCacheableRequest(request('/media/images/a.jpg'), 'sid')).toBe(false)
    expect(isCacheableRequest(request('/news', 'GET', { range: 'bytes=0-1' }), 'sid')).toBe(false)
    // An absolute address names a host of its own, which the key does not hold.
    expect(isCacheableRequest(request('http://example.org/news'), 'sid')).toBe(false)
  })
})

describe('a kept page', () => {
  const html = `<p>${'Hope '.repeat(400)}</p><script nonce="n1">go()</script><script nonce="n1" type="module" src="/assets/a.js"></script>`
  const csp = "default-src 'self'; script-src 'self' 'nonce-n1'; style-src 'self'"

  it('allows its own inline scripts by their hashes instead of the nonce it was made with', async () => {
    const stored = await kept(page(html, { 'content-security-policy': csp }))
    const hash = crypto.createHash('sha256').update('go()').digest('base64')
    const headers = new Headers(stored.headers)
    expect(headers.get('content-security-policy')).toBe(
      `default-src 'self'; script-src 'self' 'sha256-${hash}'; style-src 'self'`,
    )
    expect(stored.identity.toString()).toBe(html.replaceAll(' nonce="n1"', ''))
  })

  it('is compressed once per encoding, when a client first takes it, and sent in the best one the client takes', async () => {
    const stored = await kept(page(html, { vary: 'Cookie' }))
    const grew = vi.fn()
    expect(stored.encoded).toEqual({})
    await encodeFor(stored, 'gzip, deflate, br', grew)
    expect(Object.keys(stored.encoded)).toEqual(['br'])
    await encodeFor(stored, 'br', grew)
    expect(grew).toHaveBeenCalledTimes(1)
    const br = answerOf(stored, { 'accept-encoding': 'gzip, deflate, br' }, 'hit')
    expect(new Headers(br.headers).get('content-encoding')).toBe('br')
    expect(new Headers(br.headers).get('vary')).toBe('Cookie, Accept-Encoding')
    expect(brotliDecompressSync(br.body!).toString()).toBe(html)
    // Made while this client is sent nothing it does not take.
    await encodeFor(stored, 'gzip, BR;Q=0', grew)
    expect(grew).toHaveBeenCalledTimes(2)
    const gzip = answerOf(stored, { 'accept-encoding': 'gzip, BR;Q=0' }, 'hit')
    expect(new Headers(gzip.headers).get('content-encoding')).toBe('gzip')
    expect(gunzipSync(gzip.body!).toString()).toBe(html)
    const plain = answerOf(stored, { 'accept-encoding': 'identity' }, 'miss')
    expect(new Headers(plain.headers).get('content-encoding')).toBeNull()
    expect(new Headers(plain.headers).get('content-length')).toBe(String(Buffer.byteLength(html)))
    expect(new Headers(plain.headers).get('x-page-cache')).toBe('miss')
    expect(plain.body!.toString()).toBe(html)
  })

  const browser = 'gzip, deflate, br'

  it('answers a client that holds it already with 304 and its validators, and nothing else', async () => {
    const stored = await kept(page(html, { vary: 'Cookie', 'cache-control': 'public, no-cache' }))
    expect(stored.etag).toMatch(/^W\/"[\w-]{22}"$/)
    // The same bytes made again have the same tag: another process, or after the cache let it go.
    expect((await kept(page(html))).etag).toBe(stored.etag)
    expect((await kept(page(`${html}<p>More</p>`))).etag).not.toBe(stored.etag)

    for (const held of [stored.etag, stored.etag.slice(2), `"other", ${stored.etag}`, '*']) {
      const answer = answerOf(stored, { 'accept-encoding': 'br', 'if-none-match': held }, 'hit')
      expect(answer.status, held).toBe(304)
      expect(answer.body).toBeNull()
      expect(Object.fromEntries(answer.headers)).toEqual({
        etag: stored.etag,
        'cache-control': 'public, no-cache',
        vary: 'Cookie, Accept-Encoding',
        'x-page-cache': 'hit',
      })
    }
    const changed = answerOf(stored, { 'accept-encoding': 'identity', 'if-none-match': 'W/"an-older-copy"' }, 'hit')
    expect(changed.status).toBe(200)
    expect(new Headers(changed.headers).get('etag')).toBe(stored.etag)
    expect(changed.body!.toString()).toBe(html)
  })

  it('makes each copy once for a burst of visitors', async () => {
    const stored = await kept(page(html))
    const grew = vi.fn()
    await Promise.all(Array.from({ length: 20 }, () => encodeFor(stored, browser, grew)))
    expect(grew).toHaveBeenCalledTimes(1)
    expect(Object.keys(stored.encoded)).toEqual(['br'])
    // A gzip-only burst after it is sent gzip, made once too.
    await Promise.all(Array.from({ length: 20 }, () => encodeFor(stored, 'gzip', grew)))
    expect(grew).toHaveBeenCalledTimes(2)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(grew).toHaveBeenCalledTimes(2)
  })
})
