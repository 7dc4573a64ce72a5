import { afterAll, describe, expect, it } from 'vitest'
import { plainPng } from '../fixtures/images'
import { get, post } from '../setup/http-session'
import { execOnServerDatabase, queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'
import { startTestServer } from '../setup/server'
import { uploadOverHttp } from '../setup/tus-upload'

const { server, admin } = await startServerForFileSignedIn()
// A second process of the same site, on the same database, as behind a load balancer.
const other = await startTestServer({}, { sharedDatabase: server.database })
afterAll(() => other.stop())

async function productSlugs(url: string, path = '/marketplace', cookie?: string): Promise<string[]> {
  const response = await fetch(url + path, { headers: cookie ? { cookie } : {} })
  const html = await response.text()
  return [...html.matchAll(/<h2 class="product-card-name"><a href="\/marketplace\/([a-z0-9-]+)"/g)].map((m) => m[1])
}

async function deleteProduct(slug: string) {
  const [{ id }] = await queryServerDatabase<{ id: string }>(server, `select id from products where slug = '${slug}'`)
  expect((await post(server, '/admin/products', { intent: 'delete', id }, admin)).status).toBe(302)
}

describe('the page cache', () => {
  it('serves an anonymous page again from memory, as it was made', async () => {
    const first = await get(server, '/about')
    const second = await get(server, '/about')
    expect(first.headers.get('x-page-cache')).toMatch(/^(miss|hit)$/)
    expect(second.headers.get('x-page-cache')).toBe('hit')
    expect(await second.text()).toBe(await first.text())
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'))
  })

  it('makes a page once for a burst of visitors who all ask for it before it is kept', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(server, '/support')))
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    const states = answers.map((answer) => answer.headers.get('x-page-cache'))
    expect(states.filter((state) => state === 'miss')).toHaveLength(1)
    expect(states.filter((state) => state === 'hit')).toHaveLength(19)
    const bodies = new Set(await Promise.all(answers.map((answer) => answer.text())))
    expect(bodies.size).toBe(1)
  })

  it('never keeps what a signed-in user sees, nor media files or the health check', async () => {
    for (let i = 0; i < 2; i++) {
      const page = await get(server, '/about', admin)
      expect(page.headers.get('x-page-cache')).toBeNull()
      expect(page.headers.get('cache-control')).toBe('private, no-store')
    }
    const html = await (await get(server, '/marketplace/beaded-bracelets')).text()
    const image = html.match(/src="(\/media\/images\/[^"]+\.jpg)"/)![1]
    for (const path of [image, image, '/healthz', '/healthz']) {
      expect((await get(server, path)).headers.get('x-page-cache'), path).toBeNull()
    }
  })

  it('keeps a page per cookie it depends on, and never an answer that sets one', async () => {
    const chosen = await get(server, '/marketplace?view=grid')
    expect(chosen.headers.get('x-page-cache')).toBeNull()
    const cookie = chosen.headers.getSetCookie()[0].split(';')[0]
    for (let i = 0; i < 2; i++) {
      expect(await (await get(server, '/marketplace', cookie)).text()).toContain('product-list-grid')
      expect(await (await get(server, '/marketplace')).text()).toContain('product-list-list')
    }
  })

  it('shows a change at once, on every process of the site', async () => {
    // Both processes have the marketplace in memory...
    for (const url of [server.url, other.url, server.url, other.url])
      expect(await productSlugs(url)).toContain('coconut-sugar-cake')
    expect((await get(other, '/marketplace')).headers.get('x-page-cache')).toBe('hit')
    // ...until a manager deletes a product on one of them.
    await deleteProduct('coconut-sugar-cake')
    for (const url of [server.url, other.url]) expect(await productSlugs(url)).not.toContain('coconut-sugar-cake')
    // The JSON and the sitemap follow too.
    const api = (await (await get(other, '/api/marketplace')).json()) as { products: { slug: string }[] }
    expect(api.products.map((p) => p.slug)).not.toContain('coconut-sugar-cake')
  })

  it('shows a change made by no form at all (a script, a background job) at once, on every process', async () => {
    for (const url of [server.url, other.url, server.url, other.url])
      expect(await productSlugs(url)).toContain('beaded-bracelets')
    expect((await get(server, '/marketplace')).headers.get('x-page-cache')).toBe('hit')
    await execOnServerDatabase(server, `update products set slug = 'bracelets-of-beads' where slug = 'beaded-bracelets'`)
    for (const url of [server.url, other.url]) {
      const slugs = await productSlugs(url)
      expect(slugs).toContain('bracelets-of-beads')
      expect(slugs).not.toContain('beaded-bracelets')
    }
    expect((await get(other, '/marketplace')).headers.get('x-page-cache')).toBe('hit')
  })

  it('keeps its pages while a volunteer uploads a file, signs in elsewhere or shares a preview', async () => {
    // A draft to share (making it one changes the news: done before the page is kept).
    const [draft] = await queryServerDatabase<{ id: string }>(server, `select id from articles order by title limit 1`)
    await execOnServerDatabase(server, `update articles set publish_at = null where id = '${draft.id}'`)
    await get(server, '/services')
    expect((await get(server, '/services')).headers.get('x-page-cache')).toBe('hit')
    await uploadOverHttp(server, admin, await plainPng(64, 64), 'photo.png', 'image/png')
    expect((await post(server, '/admin/previews', { table: 'articles', id: draft.id }, admin)).status).toBe(302)
    expect((await get(server, '/services')).headers.get('x-page-cache')).toBe('hit')
  })

  it('forgets a page after PAGE_CACHE_SECONDS, and keeps none with 0', async () => {
    const short = await startTestServer({ PAGE_CACHE_SECONDS: '1' }, { sharedDatabase: server.database })
    const none = await startTestServer({ PAGE_CACHE_SECONDS: '0' }, { sharedDatabase: server.database })
    try {
      await get(short, '/services')
      expect((await get(short, '/services')).headers.get('x-page-cache')).toBe('hit')
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      expect((await get(short, '/services')).headers.get('x-page-cache')).toBe('miss')
      for (let i = 0; i < 2; i++) expect((await get(none, '/services')).headers.get('x-page-cache')).toBeNull()
    } finally {
      await Promise.all([short.stop(), none.stop()])
    }
  })
})
