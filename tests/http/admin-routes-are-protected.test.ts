import type { RouteConfigEntry } from '@react-router/dev/routes'
import { beforeAll, describe, expect, it } from 'vitest'
import routes from '../../app/routes'
import { get, post, signIn } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

/** Every URL pattern of the route config, with index routes at their parent's path. */
function urlPatterns(entries: RouteConfigEntry[], parent = ''): { pattern: string; page: boolean }[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}`.replace(/\/+/g, '/') : parent
    const own = entry.index || (entry.path !== undefined && !entry.children?.some((c) => c.index)) ? [path || '/'] : []
    // A resource route (a .ts module: no page to render) answers with its own statuses.
    const page = entry.file.endsWith('.tsx')
    return [...own.map((pattern) => ({ pattern, page })), ...urlPatterns(entry.children ?? [], path)]
  })
}

/** Concrete URLs for a pattern: parameters get a well-formed id that matches nothing; an optional last one is also left out. */
function concrete(pattern: string): string[] {
  const filled = pattern.replace(/:\w+\??/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x')
  return /\/:\w+\?$/.test(pattern) ? [filled, concrete(pattern.replace(/\/:\w+\?$/, ''))].flat() : [filled]
}

const adminRoutes = urlPatterns(routes).filter(({ pattern }) => pattern === '/admin' || pattern.startsWith('/admin/'))
const adminUrls = [...new Set(adminRoutes.flatMap(({ pattern }) => concrete(pattern)))]
const adminPages = [...new Set(adminRoutes.filter((r) => r.page).flatMap(({ pattern }) => concrete(pattern)))]

/** What a marketplace manager may open: product pages, and their own account (to change their password). */
function allowedForMarketplace(url: string): boolean {
  return url === '/admin/products' || url.startsWith('/admin/products/') || url === '/admin/account'
}

const { server, admin } = await startServerForFileSignedIn()
let marketplace: string
beforeAll(async () => {
  const added = await post(
    server,
    '/admin/users/new',
    { name: 'Mia Market', email: 'mia@example.org', role: 'marketplace', password: 'mias own password' },
    admin,
  )
  expect(added.status).toBe(302)
  marketplace = await signIn(server, 'mia@example.org', 'mias own password')
})

const FORM = { intent: 'remove', id: '00000000-0000-4000-8000-000000000000', name: 'x' }

describe('the admin area', () => {
  it('sends a signed-in marketplace manager to a page they may open', async () => {
    const res = await get(server, '/login', marketplace)
    expect(res.status).toBe(302)
    const landing = await get(server, res.headers.get('location')!, marketplace)
    expect(landing.status).toBe(200)
  })

  it('is found in the route config', () => {
    expect(adminUrls).toContain('/admin')
    expect(adminUrls).toContain('/admin/users')
    expect(adminUrls).toContain('/admin/uploads')
    expect(adminUrls.length).toBeGreaterThan(3)
  })

  it.each(adminUrls)('%s refuses anonymous GET and POST', async (url) => {
    for (const response of [await get(server, url), await post(server, url, FORM)]) {
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toMatch(/^\/login\?redirectTo=/)
    }
    // the data endpoint behind client-side navigation answers with the same redirect, and no data
    const body = await (await get(server, `${url}.data`)).text()
    expect(body).toMatch(/^\[\["SingleFetchRedirect",1\]/)
    expect(body).toContain('/login?redirectTo=')
  })

  it.each(adminUrls)('%s is refused to a marketplace manager unless it is about products', async (url) => {
    const getResponse = await get(server, url, marketplace)
    const postResponse = await post(server, url, FORM, marketplace)
    if (allowedForMarketplace(url)) {
      expect(getResponse.status).not.toBe(403)
      return
    }
    expect(getResponse.status).toBe(403)
    // 405 where the page has no form at all; never a success
    expect([403, 405]).toContain(postResponse.status)
  })

  it.each(adminPages.filter((u) => !u.includes('00000000')))('%s opens for an admin', async (url) => {
    expect((await get(server, url, admin)).status).toBe(200)
  })
})
