import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN, get, post, sessionCookieOf } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// The proxy in front terminates TLS, but TRUST_PROXY is not set: PUBLIC_URL alone says visitors use HTTPS.
const PUBLIC_URL = 'https://charity.example'
const server = await startTestServer({ PUBLIC_URL })
afterAll(() => server.stop())

describe('a site whose PUBLIC_URL is https', () => {
  it('marks the session cookie Secure even when the hop to the server is plain HTTP', async () => {
    const response = await post(server, '/login', ADMIN, undefined, { origin: PUBLIC_URL })
    expect(response.status).toBe(302)
    expect(response.headers.getSetCookie().find((c) => c.startsWith('sid='))).toMatch(/; Secure/)
  })

  it('tells browsers to use HTTPS from now on (HSTS)', async () => {
    const response = await fetch(server.url)
    expect(response.headers.get('strict-transport-security')).toBe('max-age=15552000; includeSubDomains')
  })

  it('builds absolute links from PUBLIC_URL and does not warn that it is missing', async () => {
    expect(await (await fetch(`${server.url}/news/feed.xml`)).text()).toContain(`<link>${PUBLIC_URL}/news</link>`)
    expect(server.output()).not.toContain('PUBLIC_URL is not set')
  })

  it('stores article links to PUBLIC_URL as paths, and the feed makes them absolute with it', async () => {
    const admin = sessionCookieOf(await post(server, '/login', ADMIN, undefined, { origin: PUBLIC_URL }))!
    const body = new FormData()
    body.set('title', 'Our own address')
    body.set('content', `See [the calendar](${PUBLIC_URL}/calendar) and [the server itself](${server.url}/about).`)
    const saved = await fetch(`${server.url}/admin/news/new`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: PUBLIC_URL, cookie: admin },
      body,
    })
    expect(saved.status).toBe(302)
    const page = await (await get(server, '/news/our-own-address')).text()
    expect(page).toContain('<a href="/calendar">the calendar</a>')
    // Only the public address is the site's: any other stays as typed, and is treated as another site's.
    expect(page).toContain(`<a href="${server.url}/about" rel="nofollow noopener">the server itself</a>`)
    const feed = await (await get(server, '/news/feed.xml')).text()
    expect(feed).toContain(`<a href="${PUBLIC_URL}/calendar">the calendar</a>`)
  })

  it('still refuses a post from another origin', async () => {
    const response = await post(server, '/login', ADMIN, undefined, { origin: server.url })
    expect(response.status).toBe(403)
  })
})
