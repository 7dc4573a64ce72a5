import { describe, expect, it } from 'vitest'
import { get, post, signIn } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// The admin bar's "Edit this page" names the admin page of what the page shows, and only for
// someone who may manage it. Anonymous pages carry no bar at all.
const { server, admin } = await startServerForFileSignedIn()

const ARTICLE = '/news/monthly-food-and-clothing-distribution'
const PRODUCT = '/marketplace/banana-bread-loaf'

/** The href of the bar's "Edit this page" link, or null; undefined when the page has no bar. */
async function editLink(path: string, cookie?: string): Promise<string | null | undefined> {
  const response = await get(server, path, cookie)
  expect(response.status, path).toBe(200)
  const html = await response.text()
  const bar = html.match(/<div class="admin-bar" data-admin-bar="">([\s\S]*?)<\/div>/)
  if (!bar) return undefined
  return bar[1].match(/<a [^>]*href="([^"]+)"[^>]*>Edit this page<\/a>/)?.[1].replaceAll('&amp;', '&') ?? null
}

describe('the admin bar', () => {
  it('is absent for anonymous visitors', async () => {
    for (const path of ['/', '/about', ARTICLE, PRODUCT, '/calendar']) expect(await editLink(path), path).toBeUndefined()
  })

  it("leads an administrator to the page texts, the article, the product or the section's list", async () => {
    expect(await editLink('/', admin)).toBe('/admin/pages?page=home')
    expect(await editLink('/support', admin)).toBe('/admin/pages?page=support')
    expect(await editLink('/contact', admin)).toBe('/admin/settings')
    expect(await editLink('/news', admin)).toBe('/admin/news')
    expect(await editLink(ARTICLE, admin)).toMatch(/^\/admin\/news\/[\w-]+$/)
    expect(await editLink(PRODUCT, admin)).toMatch(/^\/admin\/products\/[\w-]+$/)
    expect(await editLink('/photos', admin)).toBe('/admin/photos')
    expect(await editLink('/calendar', admin)).toBe('/admin/events')

    const editArticle = await get(server, (await editLink(ARTICLE, admin))!, admin)
    expect(editArticle.status).toBe(200)
    expect(await editArticle.text()).toContain('Monthly Food and Clothing Distribution')
  })

  it('shows a marketplace manager "Edit this page" only where they may edit', async () => {
    const created = await post(
      server,
      '/admin/users/new',
      { name: 'Mia Market', email: 'mia@example.org', role: 'marketplace', password: 'mias own password' },
      admin,
    )
    expect(created.status).toBe(302)
    const manager = await signIn(server, 'mia@example.org', 'mias own password')
    expect(await editLink(PRODUCT, manager)).toMatch(/^\/admin\/products\/[\w-]+$/)
    expect(await editLink('/marketplace', manager)).toBe('/admin/products')
    expect(await editLink(ARTICLE, manager)).toBeNull()
    expect(await editLink('/', manager)).toBeNull()
  })
})
