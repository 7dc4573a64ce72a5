import crypto from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { createFakeClock } from '../setup/fake-clock'
import { get, post, signIn } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// "Preview" on an edit page: the public page of a draft or scheduled item, as it will look, by a link anyone can open.
const clock = createFakeClock()
const server = await startTestServer(clock.env)
afterAll(() => server.stop())
const admin = await signIn(server)

async function draftArticle(title: string): Promise<string> {
  const posted = await post(server, '/admin/news/new', { title, content: `${title} text.`, publish: 'draft' }, admin)
  expect(posted.status).toBe(302)
  const list = await (await get(server, '/admin/news?state=draft', admin)).text()
  // The row's edit link follows its title.
  const row = list.slice(list.indexOf(`>${title}<`))
  const found = /\/admin\/news\/([0-9a-f-]{36})/.exec(row)
  if (!found) throw new Error(`${title} is not in the admin list`)
  return found[1]!
}

/** Presses "Preview" on the article's edit page: the link it opens. */
async function previewLink(id: string, cookie = admin): Promise<string> {
  const response = await post(server, '/admin/previews', { table: 'articles', id }, cookie)
  expect(response.status).toBe(302)
  const location = response.headers.get('location')!
  expect(location).toMatch(/^\/preview\/[0-9a-f-]{36}\.[\w-]{43}$/)
  return location
}

describe('a preview link', () => {
  let id = ''
  let link = ''

  it('opens the draft as its page will look, to someone without an account, marked, never kept and not indexed', async () => {
    id = await draftArticle('Quokka picnic plans')
    link = await previewLink(id)
    const redirect = await get(server, link)
    expect(redirect.status).toBe(302)
    const page = redirect.headers.get('location')!
    expect(page).toBe(`/news/quokka-picnic-plans?preview=${encodeURIComponent(link.slice('/preview/'.length))}`)

    for (let visit = 0; visit < 2; visit++) {
      const response = await get(server, page)
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('private, no-store')
      expect(response.headers.get('x-robots-tag')).toBe('noindex')
      expect(response.headers.get('x-page-cache')).not.toBe('hit')
      const html = await response.text()
      expect(html).toContain('Quokka picnic plans text.')
      expect(html).toContain('Preview: this is a draft, not public yet.')
      expect(html).toContain(`value="${server.url}${link}"`)
      expect(html).toMatch(/<meta name="robots" content="noindex"/)
      // No share buttons for a page nobody else may see yet.
      expect(html).not.toContain('Share this article')
    }
    // A browser that goes to the page with its scripts loads the page's data from `<page>.data`.
    const [pathname, query] = page.split('?')
    const data = await get(server, `${pathname}.data?${query}`)
    expect(data.status).toBe(200)
    expect(await data.text()).toContain('Quokka picnic plans text.')
  })

  it('shows nothing without its secret, with a wrong one, or on another item', async () => {
    expect((await get(server, '/news/quokka-picnic-plans')).status).toBe(404)
    const madeUp = await get(server, '/news/quokka-picnic-plans?preview=nonsense')
    expect(madeUp.status).toBe(302)
    expect(madeUp.headers.get('location')).toBe('/news/quokka-picnic-plans')
    const forged = link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
    expect((await get(server, forged)).status).toBe(410)
    await draftArticle('Wombat workshop')
    const another = await get(server, `/news/wombat-workshop?preview=${link.slice('/preview/'.length)}`)
    expect(another.headers.get('location')).toBe('/news/wombat-workshop')
    expect((await get(server, '/news/wombat-workshop')).status).toBe(404)
    // Nor does it mark a published page as a preview.
    const page = await (await get(server, '/news')).text()
    const published = page.match(/href="(\/news\/(?!feed\.xml)[^"?]+)"/)![1]
    expect((await get(server, `${published}?preview=${link.slice('/preview/'.length)}`)).headers.get('location')).toBe(published)
  })

  it('sends a made-up or ended preview value on to the page itself, and keeps no page for it', async () => {
    const page = await (await get(server, '/news')).text()
    const published = page.match(/href="(\/news\/(?!feed\.xml)[^"?]+)"/)![1]
    for (const junk of ['1', '2', '1', `${crypto.randomUUID()}.${'a'.repeat(43)}`]) {
      const response = await get(server, `${published}?preview=${junk}`)
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(published)
      expect(response.headers.get('cache-control')).toBe('private, no-store')
      expect(response.headers.get('x-page-cache')).not.toBe('hit')
    }
    const photos = await (await get(server, '/photos')).text()
    const photo = photos.match(/href="(\/photos\/[^"?]+)"/)![1]
    // Only the preview goes: what else the page reads stays in its address.
    const filtered = await get(server, `${photo}?category=Community&preview=junk`)
    expect(filtered.headers.get('location')).toBe(`${photo}?category=Community`)
  })

  it('is made only by those who may edit the item, and is in the audit log', async () => {
    const anonymous = await post(server, '/admin/previews', { table: 'articles', id })
    expect(anonymous.headers.get('location')).toMatch(/^\/login/)
    const added = await post(
      server,
      '/admin/users/new',
      { name: 'Pia Products', email: 'pia@example.org', role: 'marketplace', password: 'pias own password' },
      admin,
    )
    expect(added.status).toBe(302)
    const manager = await signIn(server, 'pia@example.org', 'pias own password')
    expect((await post(server, '/admin/previews', { table: 'articles', id }, manager)).status).toBe(403)
    expect((await post(server, '/admin/previews', { table: 'nonsense', id }, admin)).status).toBe(400)
    const audit = await (await get(server, '/admin/audit?what=preview.link-made', admin)).text()
    expect(audit).toContain('Quokka picnic plans')
  })

  it('ends for good once the item is published, leading to its public page', async () => {
    const published = await post(
      server,
      `/admin/news/${id}`,
      { title: 'Quokka picnic plans', content: 'Quokka picnic plans text.', publish: 'now' },
      admin,
    )
    expect(published.status, await published.clone().text()).toBe(302)
    const redirect = await get(server, link)
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe('/news/quokka-picnic-plans')
    // A draft again later: the old link stays ended.
    await post(
      server,
      `/admin/news/${id}`,
      { title: 'Quokka picnic plans', content: 'Quokka picnic plans text.', publish: 'draft' },
      admin,
    )
    const ended = await get(server, link)
    expect(ended.status).toBe(410)
    expect(await ended.text()).toContain('This preview link has ended')
    // "Preview" on a published item has nothing to show before the public page.
    await post(
      server,
      `/admin/news/${id}`,
      { title: 'Quokka picnic plans', content: 'Quokka picnic plans text.', publish: 'now' },
      admin,
    )
    const refused = await post(server, '/admin/previews', { table: 'articles', id }, admin)
    expect(refused.headers.get('location')).toBe(`/admin/news/${id}`)
  })

  it('ends when the item is deleted, and after seven days', async () => {
    const doomed = await draftArticle('Numbat nature walk')
    const doomedLink = await previewLink(doomed)
    expect((await post(server, '/admin/news', { id: doomed }, admin)).status).toBe(302)
    expect((await get(server, doomedLink)).status).toBe(410)

    const lasting = await previewLink(await draftArticle('Bilby bake sale'))
    expect((await get(server, lasting)).status).toBe(302)
    clock.setAhead(7 * 24 * 3_600_000 + 60_000)
    expect((await get(server, lasting)).status).toBe(410)
  })
})
