import crypto from 'node:crypto'
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()

/** A GET with a Host header of our choosing (fetch always sends the URL's own host). */
function getWithHost(path: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(server.url + path, { headers: { host } }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve(body))
      })
      .on('error', reject)
  })
}

describe('the HTTP server', () => {
  it('answers the health check when the database answers', async () => {
    const res = await fetch(`${server.url}/healthz`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok', database: 'ok' })
  })

  it('sends a signed-in user an enforced CSP with a fresh nonce that the page scripts carry', async () => {
    const res = await get(server, '/', admin)
    const csp = res.headers.get('content-security-policy') ?? ''
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1]
    expect(nonce).toBeTruthy()
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get('content-security-policy-report-only')).toBeNull()
    const html = await res.text()
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
    const second = await get(server, '/', admin)
    expect(second.headers.get('content-security-policy')).not.toContain(nonce)
  })

  it('allows the inline scripts of a page for visitors (Support: its copy buttons) by their hashes, and no other', async () => {
    for (const state of ['miss', 'hit']) {
      const res = await fetch(`${server.url}/support`)
      expect(res.headers.get('x-page-cache')).toBe(state)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).not.toContain("'nonce-")
      expect(csp).not.toContain("'unsafe-inline'; script")
      const allowed = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]).sort()
      const html = await res.text()
      expect(html).not.toMatch(/ nonce="[^"]/)
      const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
        .map((m) => m[1])
        .filter(Boolean)
        .map((content) => crypto.createHash('sha256').update(content).digest('base64'))
      expect(inline.length).toBeGreaterThan(0)
      expect([...new Set(inline)].sort()).toEqual(allowed)
    }
  })

  it('sets the other security headers and hides the server technology', async () => {
    const res = await fetch(server.url)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin')
    expect(res.headers.get('x-powered-by')).toBeNull()
  })

  it('sends HSTS only over HTTPS, never over plain HTTP', async () => {
    const res = await fetch(server.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('strict-transport-security')).toBeNull()
  })

  it('warns at start that PUBLIC_URL is not set', () => {
    expect(server.output()).toContain('PUBLIC_URL is not set')
  })

  it("builds absolute links from its own address, never from a stranger's Host header", async () => {
    const port = new URL(server.url).port
    for (const path of ['/news/feed.xml', '/sitemap.xml', '/']) {
      const body = await getWithHost(path, 'evil.example')
      expect(body).not.toContain('evil.example')
      expect(body).toContain(`http://127.0.0.1:${port}/`)
    }
    // Its own address under the name `localhost` is still its own address.
    expect(await getWithHost('/news/feed.xml', `localhost:${port}`)).toContain(`<link>http://localhost:${port}/news</link>`)
  })

  it('logs a POST or OPTIONS to a page without a form as a refused request, not as a server error', async () => {
    const before = server.output().length
    const posted = await fetch(`${server.url}/about`, { method: 'POST', headers: { origin: server.url }, body: 'x=1' })
    expect(posted.status).toBe(405)
    const options = await fetch(`${server.url}/about`, { method: 'OPTIONS' })
    expect(options.status).toBeGreaterThanOrEqual(400)
    expect(options.status).toBeLessThan(500)
    await new Promise((resolve) => setTimeout(resolve, 200)) // let the log lines arrive
    expect(server.output().slice(before)).not.toMatch(/"level":(50|60)/)
  })

  it('compresses pages and caches hashed assets forever', async () => {
    // The news list ships the site's scripts (the home page has none of its own to fetch).
    const res = await fetch(`${server.url}/news`, { headers: { 'accept-encoding': 'gzip' } })
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const asset = (await res.text()).match(/\/assets\/[\w.-]+\.js/)![0]
    const assetRes = await fetch(server.url + asset)
    expect(assetRes.status).toBe(200)
    expect(assetRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  })

  it('sends built files compressed ahead, brotli first, and confirms a cached copy with 304', async () => {
    const page = await (await fetch(`${server.url}/news`)).text()
    const asset = page.match(/\/assets\/[\w.-]+\.js/)![0]
    // fetch() would decode the body itself: ask for the bytes as sent.
    const plain = await fetch(server.url + asset, { headers: { 'accept-encoding': 'identity' } })
    const source = await plain.text()
    expect(plain.headers.get('content-encoding')).toBeNull()
    const etag = plain.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]{22}"$/)
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const res = await fetch(server.url + asset, { headers: { 'accept-encoding': accept } })
      expect(res.headers.get('content-encoding'), accept).toBe(encoding)
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(await res.text(), accept).toBe(source) // decoded by fetch: the same script
    }
    const again = await fetch(server.url + asset, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const head = await fetch(server.url + asset, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } })
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(source)))
    const favicon = await fetch(`${server.url}/favicon.svg`)
    expect(favicon.headers.get('content-type')).toBe('image/svg+xml')
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600')
  })

  it('refuses a write from a foreign origin before the app sees it', async () => {
    const res = await fetch(`${server.url}/`, { method: 'POST', headers: { origin: 'https://evil.example' }, body: 'x=1' })
    expect(res.status).toBe(403)
  })

  it('answers an oversized body with 413 before parsing it', async () => {
    const body = new Uint8Array(13 * 1024 * 1024)
    const res = await fetch(`${server.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body,
    })
    expect(res.status).toBe(413)
  })

  it('answers unknown URLs with a 404 page', async () => {
    const res = await fetch(`${server.url}/no-such-page`)
    expect(res.status).toBe(404)
    expect(await res.text()).not.toMatch(/at \w+ \(/)
  })
})
