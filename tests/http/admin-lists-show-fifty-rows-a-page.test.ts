import { afterAll, describe, expect, it } from 'vitest'
import { addDays, todayIn } from '../../app/platform/dates'
import { get, post, signIn } from '../setup/http-session'
import { execOnServerDatabase, queryServerDatabase } from '../setup/server-database'
import { startTestServer } from '../setup/server'

// A site that has posted for years: each admin list shows fifty rows, with links to the others.
const server = await startTestServer()
afterAll(() => server.stop())
const admin = await signIn(server)
const ZONE = 'America/Antigua'
const ADDED = 52
const numbered = (i: number) => String(i + 1).padStart(2, '0')

for (let i = 0; i < ADDED; i++) {
  const n = numbered(i)
  const responses = [
    await post(server, '/admin/news/new', { title: `Paged article ${n}`, content: 'Text.', publish: 'draft' }, admin),
    await post(
      server,
      '/admin/products/new',
      { name: `Paged product ${n}`, description: 'Goods.', category: 'crafts', publish: 'draft' },
      admin,
    ),
    await post(
      server,
      '/admin/events/new',
      {
        title: `Paged event ${n}`,
        description: 'A gathering.',
        location: 'Ministry Centre',
        type: 'general',
        repeat: 'none',
        repeatEnds: 'never',
        startDate: addDays(todayIn(ZONE), 400 + i),
        startTime: '10:00',
        publish: 'draft',
      },
      admin,
    ),
  ]
  expect(responses.map((response) => response.status)).toEqual([302, 302, 302])
}
// Uploading 52 pictures would take most of this test's time: the items are copies of a demo photo's row.
await execOnServerDatabase(
  server,
  `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ADDED})
   insert into media_items (id, slug, kind, title, description, category, featured, image_id, video_id, created_at, updated_at, publish_at, trashed_at)
   select 'paged-' || cast(n.i as text), 'paged-photo-' || cast(n.i as text), 'photo',
     'Paged photo ' || (case when n.i < 10 then '0' else '' end) || cast(n.i as text),
     'A moment.', m.category, 0, m.image_id, null, '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', null, null
   from n cross join (select category, image_id from media_items where kind = 'photo' and image_id is not null order by id limit 1) m`,
)

/** Each list, its title, its table, the name its added rows share, and the fields its delete form sends besides the id. */
const LISTS: { path: string; title: string; table: string; marker: string; named: string; deleting: Record<string, string> }[] = [
  { path: '/admin/news', title: 'News', table: 'articles', marker: 'Paged article', named: 'title', deleting: {} },
  {
    path: '/admin/products',
    title: 'Products',
    table: 'products',
    marker: 'Paged product',
    named: 'name',
    deleting: { intent: 'delete' },
  },
  { path: '/admin/events', title: 'Events', table: 'events', marker: 'Paged event', named: 'title', deleting: {} },
  {
    path: '/admin/photos',
    title: 'Gallery',
    table: 'media_items',
    marker: 'Paged photo',
    named: 'title',
    deleting: { intent: 'delete' },
  },
]

/** The page's HTML, without the comments React writes between pieces of text. */
async function page(path: string): Promise<string> {
  const response = await get(server, path, admin)
  expect(response.status, path).toBe(200)
  return (await response.text()).replaceAll('<!-- -->', '')
}

/** The links of a page's "Previous page" and "Next page", as written in its HTML. */
function pageLinks(html: string): { prev?: string; next?: string } {
  const nav = html.match(/<nav class="button-row" aria-label="Pages of [^"]+">[\s\S]*?<\/nav>/)?.[0] ?? ''
  const links = [...nav.matchAll(/<a [^>]*>/g)].map(([tag]) => ({
    rel: tag.match(/rel="(\w+)"/)?.[1],
    href: tag.match(/href="([^"]+)"/)?.[1],
  }))
  return Object.fromEntries(links.map(({ rel, href }) => [rel, href]))
}

/** The numbers of the added rows a page lists, in its order. */
const addedOn = (html: string, marker: string) => [...html.matchAll(new RegExp(`${marker} (\\d\\d)`, 'g'))].map((m) => m[1])

/** The filter's links that say they are the current choice, and how. */
const currentFilter = (html: string) =>
  [
    ...(html.match(/<nav class="state-filter"[\s\S]*?<\/nav>/)?.[0] ?? '').matchAll(/<a [^>]*aria-current="(\w+)"[^>]*>([^<]+)/g),
  ].map(([, how, label]) => `${label}: ${how}`)

/** The browser's router asks a page's data from `<page>.data`; a redirect must name the page itself. */
async function expectDataRedirect(dataPath: string, page: string) {
  const response = await get(server, dataPath, admin)
  const body = await response.text()
  expect(body, dataPath).toMatch(/^\[\["SingleFetchRedirect",1\]/)
  expect(body).toContain(JSON.stringify(page))
  expect(body).not.toContain('.data')
}

/** Where the delete form of the row named `name` posts, as the browser reads its action. */
function deleteFormAction(html: string, name: string): string {
  const row = html.split('<tr').find((piece) => piece.includes(name)) ?? ''
  const action = row.match(/<form [^>]*action="([^"]+)" method="post"/)?.[1]
  expect(action, name).toBeDefined()
  return action!.replaceAll('&amp;', '&')
}

describe.each(LISTS)('$path', ({ path, title, table, marker, named, deleting }) => {
  it('shows fifty rows a page, every row on one page, with links to the pages before and after', async () => {
    const [{ total }] = await queryServerDatabase<{ total: number | string }>(
      server,
      `select count(*) as total from ${table} where trashed_at is null`,
    )
    expect(Number(total)).toBeGreaterThan(50)
    expect(Number(total)).toBeLessThanOrEqual(100)

    const first = await page(path)
    const second = await page(`${path}?page=2`)
    // Table rows less each table's heading row (events have two tables: upcoming and past).
    const rows = (html: string) => (html.match(/<tr[ >]/g) ?? []).length - (html.match(/<thead/g) ?? []).length
    expect([rows(first), rows(second)]).toEqual([50, Number(total) - 50])
    expect(first).toContain('Page 1 of 2')
    expect(first).toContain(`<title>${title} | Site admin</title>`)
    expect(pageLinks(first)).toEqual({ next: `${path}?page=2` })
    expect(second).toContain('Page 2 of 2')
    expect(second).toContain(`<title>${title}, page 2 of 2 | Site admin</title>`)
    expect(pageLinks(second)).toEqual({ prev: path })
    const seen = [...new Set(addedOn(first, marker))]
    const rest = [...new Set(addedOn(second, marker))]
    expect(seen.filter((n) => rest.includes(n))).toEqual([])
    expect([...seen, ...rest].sort()).toEqual(Array.from({ length: ADDED }, (_, i) => numbered(i)))
  })

  it('keeps the state it is filtered by from page to page', async () => {
    const drafts = await page(`${path}?state=draft`)
    expect(drafts).toContain('Page 1 of 2')
    expect(pageLinks(drafts)).toEqual({ next: `${path}?state=draft&amp;page=2` })
    expect(currentFilter(drafts)).toEqual(['Draft: page'])
    const next = await page(`${path}?state=draft&page=2`)
    expect(pageLinks(next)).toEqual({ prev: `${path}?state=draft` })
    // Its link leads to page 1: on page 2 it is the current choice, not the current page.
    expect(currentFilter(next)).toEqual(['Draft: true'])
    const published = await page(`${path}?state=published`)
    expect(published).not.toContain('Page 1 of')
    expect(addedOn(published, marker)).toEqual([])
  })

  it('answers a page that is not a page number with 404, and one past the last with the last', async () => {
    for (const asked of ['0', '-1', 'abc', '1e3', '9999999']) {
      const response = await get(server, `${path}?page=${asked}`, admin)
      expect(response.status, asked).toBe(404)
      expect(await response.text()).toContain('There is no such page.')
    }
    const past = await get(server, `${path}?state=draft&page=999999`, admin)
    expect(past.status).toBe(302)
    expect(past.headers.get('location')).toBe(`${path}?state=draft&page=2`)
    // The same page asked for by the browser's router, after a delete emptied it, leads to a page too.
    await expectDataRedirect(`${path}.data?state=draft&page=999999&_routes=x`, `${path}?state=draft&page=2`)
    // A list of one page has no page 1 of its own: its address is the list's.
    const single = await get(server, `${path}?state=published&page=5`, admin)
    expect(single.status).toBe(302)
    expect(single.headers.get('location')).toBe(`${path}?state=published`)
  })

  it('comes back to the page and the state a row was deleted from', async () => {
    // The form a browser would send, from a row on page 2 (the oldest or the latest, by the list's order).
    const listed = await page(`${path}?state=draft&page=2`)
    const name = [`${marker} 01`, `${marker} 52`].find((added) => listed.includes(added))!
    const action = deleteFormAction(listed, name)
    expect(action).toBe(`${path}?state=draft&page=2`)
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, `select id from ${table} where ${named} = '${name}'`)
    const response = await post(server, action, { ...deleting, id }, admin)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${path}?state=draft&page=2`)
    expect(await queryServerDatabase(server, `select id from ${table} where id = '${id}' and trashed_at is null`)).toEqual([])
  })
})

describe.each([
  { path: '/admin/messages', title: 'Messages', filtered: '' },
  { path: '/admin/subscribers', title: 'Subscribers', filtered: '' },
  { path: '/admin/audit', title: 'Audit log', filtered: 'what=article.created&' },
])('$path', ({ path, title, filtered }) => {
  it('answers a page that is not a page number with 404, and one past the last with the last, its filter kept', async () => {
    for (const asked of ['0', '-1', 'abc', '1e3', '9999999']) {
      const response = await get(server, `${path}?page=${asked}`, admin)
      expect(response.status, asked).toBe(404)
      expect(await response.text()).toContain('There is no such page.')
    }
    const past = await get(server, `${path}?${filtered}page=999999`, admin)
    expect(past.status).toBe(302)
    // The audit log has the 52 articles posted above: two pages of them. The others fit on one.
    const last = filtered ? `${path}?${filtered}page=2` : path
    expect(past.headers.get('location')).toBe(last)
    await expectDataRedirect(`${path}.data?${filtered}page=999999`, last)
    expect(await page(`${path}?${filtered}`)).toContain(`<title>${title} | Site admin</title>`)
    if (filtered) expect(await page(last)).toContain(`<title>${title}, page 2 of 2 | Site admin</title>`)
  })
})
