import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { createUser } from '~/modules/users/users.service.server'
import { ADMIN_SECTIONS, canManage, homeFor, ROLES, type Role, type SectionName } from './access'
import { answerNoticingSignedInUser, getOptionalUser, requireAccess, requireUser, safeRedirectPath } from './auth.server'
import { createSession, SESSION_COOKIE } from './session.server'

const DEVICE = { userAgent: null, clientAddress: '192.0.2.1' }

/** A loader's request and context, as its route is given them. */
function argsOf(request: Request) {
  return { request, context: new RouterContextProvider() }
}

async function requestAs(role: Role | null, url = 'http://site.test/admin/users?page=2') {
  if (!role) return argsOf(new Request(url))
  const user = await createUser({ email: `${role}@example.org`, name: role, role, password: 'correct horse battery' })
  const session = await createSession(user.id, DEVICE)
  return argsOf(new Request(url, { headers: { cookie: `${SESSION_COOKIE}=${session.id}` } }))
}

const SECTIONS = Object.keys(ADMIN_SECTIONS) as SectionName[]

async function thrown(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a thrown response')
    },
    (e) => e,
  )
}

describe('auth guards', () => {
  it('sends anonymous visitors to the sign-in page and back to where they were', async () => {
    const response = await thrown(requireUser(await requestAs(null)))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/login?redirectTo=%2Fadmin%2Fusers%3Fpage%3D2')
    expect(await getOptionalUser(await requestAs(null))).toBeNull()
  })

  it('brings a data request back to its page, not to the data URL', async () => {
    const response = await thrown(requireUser(await requestAs(null, 'http://site.test/admin/users.data?_routes=x')))
    expect(response.headers.get('location')).toBe('/login?redirectTo=%2Fadmin%2Fusers')
  })

  it('lets an admin into every section', async () => {
    const request = await requestAs('admin')
    for (const section of SECTIONS) expect(await requireAccess(request, section)).toMatchObject({ role: 'admin' })
  })

  it('lets a marketplace manager into products, uploads, previews, the trash (of products), the guide and their account only, and refuses the rest with 403', async () => {
    const request = await requestAs('marketplace')
    const theirs: SectionName[] = ['products', 'uploads', 'previews', 'trash', 'guide', 'account']
    for (const section of theirs) expect(await requireAccess(request, section)).toMatchObject({ role: 'marketplace' })
    for (const section of SECTIONS.filter((s) => !theirs.includes(s))) {
      const refused = await thrown(requireAccess(request, section))
      expect(refused.init?.status ?? refused.status, section).toBe(403)
    }
  })

  it('lets an editor into the content, the messages and their account, and refuses the people and the settings with 403', async () => {
    const request = await requestAs('editor')
    const notTheirs: SectionName[] = ['signups', 'subscribers', 'users', 'audit', 'settings']
    for (const section of SECTIONS.filter((s) => !notTheirs.includes(s))) {
      expect(await requireAccess(request, section)).toMatchObject({ role: 'editor' })
    }
    for (const section of notTheirs) {
      const refused = await thrown(requireAccess(request, section))
      expect(refused.init?.status ?? refused.status, section).toBe(403)
    }
  })

  it('sends an anonymous visitor of any section to the sign-in page', async () => {
    const response = await thrown(requireAccess(await requestAs(null), 'account'))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toMatch(/^\/login\?redirectTo=/)
  })

  it('ignores a forged or unknown session cookie', async () => {
    const request = new Request('http://site.test/admin', { headers: { cookie: `${SESSION_COOKIE}=${'A'.repeat(43)}` } })
    expect(await getOptionalUser(argsOf(request))).toBeNull()
  })
})

describe('one answer', () => {
  it('looks a session up once for all the loaders of a page, and tells it was made for a signed-in user', async () => {
    const { request, context } = await requestAs('admin')
    const again = new Request(request.url, { headers: request.headers }) // as a loader may be given
    const answered = await answerNoticingSignedInUser({ request, context }, async () => {
      const [first, second] = [getOptionalUser({ request, context }), getOptionalUser({ request: again, context })]
      expect(second).toBe(first)
      expect(await first).toMatchObject({ role: 'admin' })
      return new Response('page')
    })
    expect(answered.forSignedInUser).toBe(true)
    // Another answer, with requests of its own, looks again.
    const another = argsOf(new Request(request.url, { headers: request.headers }))
    expect(getOptionalUser(another)).not.toBe(getOptionalUser({ request, context }))
  })

  it('after a form is sent, looks again for each request, and is not for a signed-in user when none was found', async () => {
    const { request, context } = await requestAs('admin', 'http://site.test/admin/users')
    const sent = new Request(request.url, { method: 'POST', headers: request.headers })
    const afterwards = new Request(request.url, { headers: request.headers })
    await answerNoticingSignedInUser({ request: sent, context }, async () => {
      expect(getOptionalUser({ request: afterwards, context })).not.toBe(getOptionalUser({ request: sent, context }))
      return new Response(null, { status: 303 })
    })
    const anonymous = await requestAs(null)
    const answered = await answerNoticingSignedInUser(anonymous, async () => {
      await getOptionalUser(anonymous)
      return new Response('page')
    })
    expect(answered.forSignedInUser).toBe(false)
  })
})

describe('the page after sign-in', () => {
  it('is the dashboard for an admin and an editor, and product management for a marketplace manager', () => {
    expect(homeFor({ role: 'admin' })).toBe('/admin')
    expect(homeFor({ role: 'editor' })).toBe('/admin')
    expect(homeFor({ role: 'marketplace' })).toBe('/admin/products')
  })

  it('is a page of a section the user may manage, whatever their role', () => {
    for (const role of ROLES) {
      const home = SECTIONS.find((section) => ADMIN_SECTIONS[section].path === homeFor({ role }))
      expect(home, role).toBeDefined()
      expect(canManage({ role }, home!), role).toBe(true)
    }
  })
})

describe('redirect targets after sign-in', () => {
  it.each([
    ['/admin/users', '/admin/users'],
    ['/news?page=2#top', '/news?page=2#top'],
    ['//evil.example/admin', '/admin'],
    ['/\\evil.example', '/admin'],
    ['\\\\evil.example', '/admin'],
    ['https://evil.example/', '/admin'],
    ['http:/evil.example', '/admin'],
    ['javascript:alert(1)', '/admin'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/\t/evil.example', '/admin'],
    ['/.//evil.example', '/admin'],
    ['/..//evil.example', '/admin'],
    ['/a/..//evil.example', '/admin'],
    ['/%2e//evil.example', '/admin'],
    ['', '/admin'],
    [null, '/admin'],
  ])('%j goes to %j', (target, expected) => {
    expect(safeRedirectPath(target)).toBe(expected)
  })
})
