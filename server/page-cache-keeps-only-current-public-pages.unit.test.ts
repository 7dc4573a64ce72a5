import { describe, expect, it } from 'vitest'
import { createPageCache, isCacheableRequest } from './page-cache'

function page(body: string, headers: Record<string, string> = {}, status = 200) {
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } })
}

describe('the page cache', () => {
  it('keeps a page for its content version and age only', async () => {
    let now = 0
    const cache = createPageCache(60, () => now)
    await cache.keep('/', 'v1', 'n1', page('<script nonce="n1"></script>'))
    expect(await cache.get('/', 'v1', 'n2')!.text()).toBe('<script nonce="n2"></script>')
    now = 61_000
    expect(cache.get('/', 'v1', 'n3')).toBeNull()
    await cache.keep('/', 'v1', 'n1', page('a'))
    expect(cache.get('/', 'v2', 'n3')).toBeNull()
    // Gone once its version was found out of date, even when the database cannot be asked later.
    expect(cache.get('/', null, 'n3')).toBeNull()
  })

  it('serves a page it has when the database cannot tell the version', async () => {
    const cache = createPageCache(60)
    await cache.keep('/', 'v1', 'n1', page('kept'))
    expect(await cache.get('/', null, 'n2')!.text()).toBe('kept')
  })

  it('keeps no answer that is personal, an error, a media file or too big', async () => {
    const cache = createPageCache(60)
    const refused = [
      page('x', { 'set-cookie': 'a=b' }),
      page('x', { 'cache-control': 'private, no-store' }),
      page('x', { 'cache-control': 'no-store' }),
      page('x', {}, 404),
      page('x', { 'content-type': 'image/jpeg' }),
      page('x'.repeat(1024 * 1024 + 1)),
    ]
    for (const [index, response] of refused.entries()) {
      const sent = await cache.keep(`/${index}`, 'v1', 'n', response)
      expect(sent.headers.get('x-page-cache')).toBeNull()
      expect(cache.get(`/${index}`, 'v1', 'n')).toBeNull()
    }
  })

  it('forgets the least recently used page beyond 500', async () => {
    const cache = createPageCache(60)
    for (let i = 0; i < 500; i++) await cache.keep(`/${i}`, 'v', 'n', page(String(i)))
    cache.get('/0', 'v', 'n') // used again: now the most recent
    await cache.keep('/500', 'v', 'n', page('500'))
    expect(cache.get('/0', 'v', 'n')).not.toBeNull()
    expect(cache.get('/1', 'v', 'n')).toBeNull()
  })

  it('is asked only for GETs without a session, and never for media or ranges', () => {
    const request = (path: string, init: RequestInit = {}) => new Request(`http://site.test${path}`, init)
    expect(isCacheableRequest(request('/news'), 'sid')).toBe(true)
    expect(isCacheableRequest(request('/news', { headers: { cookie: 'marketplace-view=grid' } }), 'sid')).toBe(true)
    expect(isCacheableRequest(request('/news', { headers: { cookie: 'a=1; sid=abc' } }), 'sid')).toBe(false)
    expect(isCacheableRequest(request('/news', { method: 'POST' }), 'sid')).toBe(false)
    expect(isCacheableRequest(request('/media/images/a.jpg'), 'sid')).toBe(false)
    expect(isCacheableRequest(request('/news', { headers: { range: 'bytes=0-1' } }), 'sid')).toBe(false)
  })
})

describe('a kept page', () => {
  it('is sent in the best encoding the client takes', async () => {
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib')
    const cache = createPageCache(60)
    const html = `<p>${'Hope '.repeat(400)}</p><script nonce="n1"></script>`
    await cache.keep('/', 'v', 'n1', page(html))
    const br = cache.get('/', 'v', 'n2', 'gzip, deflate, br')!
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(html.replace('n1', 'n2'))
    const gzip = cache.get('/', 'v', 'n3', 'gzip, br;q=0')!
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(html.replace('n1', 'n3'))
    const plain = cache.get('/', 'v', 'n4', 'identity')!
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(html.replace('n1', 'n4'))
  })
})
