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

/** A section's path as a pattern: `:id` stands for one item's id. */
function sectionPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}`)
}

/**
 * The access module's section of an admin URL: the dashboard owns `/admin` itself, every other
 * section its page, what lies below it and its files (`signups.csv`), the longest such path first
 * (an event's sign-up list lies below the events).
 */
function sectionOf(url: string): SectionName | undefined {
  const owners = SECTIONS.filter((name) => {
    const { path } = ADMIN_SECTIONS[name]
    const match = sectionPattern(path).exec(url)
    const below = (mark: string) => name !== 'dashboard' && url.startsWith(`${match?.[0]}${mark}`)
    return match && (url === match[0] || below('/') || below('.'))
  })
  return owners.sort((a, b) => ADMIN_SECTIONS[b].path.length - ADMIN_SECTIONS[a].path.length)[0]
}

/** Every admin URL, for every role, with what the access module says about it. */
const cases = ROLES.flatMap((role) =>
  adminUrls.map((url) => {
    const section = sectionOf(url)
    return { role, url, allowed: section !== undefined && canManage({ role }, section) }
  }),
)

const { server, admin } = await startServerForFileSignedIn()
const cookies: Record<Role, string> = { admin, editor: '', marketplace: '' }
beforeAll(async () => {
  for (const [role, name, email] of [
    ['marketplace', 'Mia Market', 'mia@example.org'],
    ['editor', 'Ed Editor', 'ed@example.org'],
  ] as const) {
    const added = await post(server, '/admin/users/new', { name, email, role, password: 'their own password' }, admin)
    expect(added.status).toBe(302)
    cookies[role] = await signIn(server, email, 'their own password')
  }
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
    expect(adminUrls).toContain(concrete(ADMIN_SECTIONS[name].path)[0])
  })

  it('lets an editor run the content and messages, and keeps the people and the settings from them', () => {
    const sections = SECTIONS.filter((name) => canManage({ role: 'editor' }, name))
    expect(sections).toEqual([
      'dashboard',
      'news',
      'events',
      'gallery',
      'products',
      'trash',
      'messages',
      'pages',
      'guide',
      'account',
      'previews',
      'uploads',
    ])
    expect(sectionOf('/admin/events/00000000-0000-4000-8000-000000000000/signups')).toBe('signups')
    expect(sectionOf('/admin/events/00000000-0000-4000-8000-000000000000')).toBe('events')
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
