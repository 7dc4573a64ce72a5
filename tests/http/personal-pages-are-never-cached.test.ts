import { describe, expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// A signed-in visitor's pages carry their name, e-mail and id (the admin bar, the page data): no
// browser history, proxy or page cache may keep them. Anonymous pages stay cacheable.
const { server, admin } = await startServerForFileSignedIn()

const PUBLIC_PAGES = ['/', '/about', '/news', '/contact']

describe('caching of pages', () => {
  it.each(PUBLIC_PAGES)('%s for a signed-in user is private and never stored', async (path) => {
    const page = await get(server, path, admin)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
  })

  it('the data a signed-in user loads when moving between pages is private too', async () => {
    const data = await get(server, '/news.data', admin)
    expect(data.status).toBe(200)
    expect(await data.text()).toContain('admin@example.org')
    expect(data.headers.get('cache-control')).toBe('private, no-store')
  })

  it('the two-step sign-in page, which shows a secret while the app is set up, is never stored', async () => {
    const page = await get(server, '/login/two-step')
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(page.headers.get('etag')).toBeNull()
  })

  it('admin pages are private and never stored', async () => {
    const page = await get(server, '/admin', admin)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
  })

  it.each(PUBLIC_PAGES)('%s for an anonymous visitor may be kept by any cache that asks again first', async (path) => {
    const page = await get(server, path)
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('public, no-cache')
  })

  it('the admin bar is in the signed-in page of / only, never in the HTML an anonymous visitor gets', async () => {
    const signedIn = await get(server, '/', admin)
    const signedInHtml = await signedIn.text()
    expect(signedInHtml).toContain('data-admin-bar')
    expect(signedInHtml).toContain('Edit this page')
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store')

    const anonymous = await get(server, '/')
    const html = await anonymous.text()
    expect(anonymous.headers.get('cache-control')).toBe('public, no-cache')
    expect(html).not.toContain('data-admin-bar')
    expect(html).not.toContain('Edit this page')
    expect(html).not.toContain('Sign out')
  })

  it('the news feed is the same for everyone, signed in or not', async () => {
    const feed = await get(server, '/news/feed.xml', admin)
    expect(feed.headers.get('cache-control')).toBe('public, max-age=300')
  })
})
