import type { RouteConfigEntry } from '@react-router/dev/routes'
import { beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_SECTIONS, canManage, homeFor, ROLES, type Role, type SectionName } from '../../app/platform/access'
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
const adminPages = new Set(adminRoutes.filter((r) => r.page).flatMap(({ pattern }) => concrete(pattern)))

const SECTIONS = Object.keys(ADMIN_SECTIONS) as SectionName[]

/** The access module's section of an admin URL: the dashboard owns `/admin` itself, every other section its page and what lies below. */
function sectionOf(url: string): SectionName | undefined {
  return SECTIONS.find((name) => {
    const { path } = ADMIN_SECTIONS[name]
    return url === path || (name !== 'dashboard' && url.startsWith(`${path}/`))
  })
}

/** Every admin URL, for every role, with what the access module says about it. */
const cases = ROLES.flatMap((role) =>
  adminUrls.map((url) => {
    const section = sectionOf(url)
    return { role, url, allowed: section !== undefined && canManage({ role }, section) }
  }),
)

const { server, admin } = await startServerForFileSignedIn()
const cookies: Record<Role, string> = { admin, marketplace: '' }
beforeAll(async () => {
  const added = await post(
    server,
    '/admin/users/new',
    { name: 'Mia Market', email: 'mia@example.org', role: 'marketplace', password: 'mias own password' },
    admin,
  )
  expect(added.status).toBe(302)
  cookies.marketplace = await signIn(server, 'mia@example.org', 'mias own password')
})

const FORM = { intent: 'remove', id: '00000000-0000-4000-8000-000000000000', name: 'x' }

describe('the admin area', () => {
  it('sends a signed-in marketplace manager to their own first page, which opens', async () => {
    const res = await get(server, '/login', cookies.marketplace)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(homeFor({ role: 'marketplace' }))
    const landing = await get(server, res.headers.get('location')!, cookies.marketplace)
    expect(landing.status).toBe(200)
  })

  it('is found in the route config', () => {
    expect(adminUrls).toContain('/admin')
    expect(adminUrls).toContain('/admin/users')
    expect(adminUrls).toContain('/admin/uploads')
    expect(adminUrls.length).toBeGreaterThan(3)
  })

  it.each(adminUrls)('%s belongs to a section of the access module', (url) => {
    expect(sectionOf(url)).toBeDefined()
  })

  it.each(SECTIONS)('the %s section has a page in the route config', (name) => {
    expect(adminUrls).toContain(ADMIN_SECTIONS[name].path)
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

  it.each(cases.filter((c) => c.allowed && adminPages.has(c.url)))(
    '$url opens for a $role user, as the access module allows',
    async ({ role, url }) => {
      const response = await get(server, url, cookies[role])
      // A URL with an id opens only for a record that exists: the made-up id gets 404, not 403.
      expect(response.status).toBe(url.includes('00000000') ? 404 : 200)
    },
  )

  it.each(cases.filter((c) => c.allowed && !adminPages.has(c.url)))(
    '$url answers a $role user itself, as the access module allows',
    async ({ role, url }) => {
      // An endpoint (no page): its own protocol answers, never the refusal or the sign-in page.
      const response = await get(server, url, cookies[role])
      expect([302, 403]).not.toContain(response.status)
    },
  )

  it.each(cases.filter((c) => !c.allowed))('$url is refused to a $role user', async ({ role, url }) => {
    const getResponse = await get(server, url, cookies[role])
    if (sectionOf(url) === 'dashboard') {
      // The admin area's front door sends them on to their own first page.
      expect(getResponse.status).toBe(302)
      expect(getResponse.headers.get('location')).toBe(homeFor({ role }))
    } else {
      expect(getResponse.status).toBe(403)
    }
    // 405 where the page has no form at all; never a success
    const postResponse = await post(server, url, FORM, cookies[role])
    expect([403, 405]).toContain(postResponse.status)
  })
})
