import { describe, expect, it } from 'vitest'
import { addDays, todayIn } from '../../app/platform/dates'
import { plainPng } from '../fixtures/images'
import { get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'
import { uploadOverHttp } from '../setup/tus-upload'

// Event, gallery and product descriptions are Markdown, as article texts are: drawn as Markdown on
// their pages and dialogs, plain text in cards, social tags, calendar files and the marketplace's JSON.
const { server, admin } = await startServerForFileSignedIn()

// Typed with the site's own address, as a volunteer pastes it; stored as a path.
const description = (kind: string) =>
  `Bring **${kind} friends**.\nDoors open early.\n\nSee [our support page](${server.url}/support) or [the map](https://maps.example.org/x).`

async function page(path: string): Promise<string> {
  const response = await get(server, path)
  expect(response.status, path).toBe(200)
  return response.text()
}

function metaDescription(html: string): string | undefined {
  return html.match(/<meta[^>]*property="og:description"[^>]*content="([^"]*)"/)?.[1]
}

function expectMarkdownDrawn(html: string, kind: string): void {
  expect(html).toContain(`Bring <strong>${kind} friends</strong>.<br>\nDoors open early.</p>`)
  expect(html).toContain('<a href="/support">our support page</a>')
  expect(html).toContain('<a href="https://maps.example.org/x" rel="nofollow noopener">the map</a>')
  // What is shown (the loader's data for the browser follows it).
  expect(html.slice(0, html.indexOf('window.__reactRouterContext'))).not.toContain('**')
  // Social tags are plain words.
  expect(metaDescription(html)).toContain(`Bring ${kind} friends. Doors open early.`)
}

describe('descriptions written in Markdown', () => {
  it('of an event: drawn on its page, plain text with absolute links in the calendar feed and its own file', async () => {
    const response = await post(
      server,
      '/admin/events/new',
      {
        title: 'Markdown picnic',
        description: description('event'),
        location: 'Ministry Centre',
        type: 'general',
        repeat: 'none',
        repeatEnds: 'never',
        startDate: addDays(todayIn('America/Antigua'), 3),
        startTime: '10:00',
      },
      admin,
    )
    expect(response.status).toBe(302)
    expectMarkdownDrawn(await page('/calendar/markdown-picnic'), 'event')
    for (const path of ['/calendar.ics', '/calendar/markdown-picnic/event.ics']) {
      // iCalendar folds lines at 75 octets and escapes commas and line breaks: read it unfolded.
      const ics = (await page(path)).replace(/\r\n[ \t]/g, '')
      const line = ics.split('\r\n').find((l) => l.startsWith('DESCRIPTION:') && l.includes('event friends'))
      expect(line, path).toBe(
        `DESCRIPTION:Bring event friends.\\nDoors open early.\\n\\nSee our support page (${server.url}/support) or the map (https://maps.example.org/x).`,
      )
    }
  })

  it("of an event: an edit shows on the event's page at once, though the page's event is kept between changes", async () => {
    const fields = {
      title: 'Edited picnic',
      description: 'Bring **a hat**.',
      location: 'Ministry Centre',
      type: 'general',
      repeat: 'weekly',
      repeatEnds: 'never',
      startDate: addDays(todayIn('America/Antigua'), 2),
      startTime: '09:00',
    }
    expect((await post(server, '/admin/events/new', fields, admin)).status).toBe(302)
    // Two addresses of one event: the page cache keeps each page, the second is made from the event the first kept.
    const addresses = ['/calendar/edited-picnic', `/calendar/edited-picnic?date=${fields.startDate}`]
    for (const address of addresses) expect(await page(address)).toContain('Bring <strong>a hat</strong>.')
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from events where slug = 'edited-picnic'")
    const edited = await post(server, `/admin/events/${id}`, { ...fields, description: 'Bring **a chair**.' }, admin)
    expect(edited.status).toBe(302)
    for (const address of addresses) {
      const html = await page(address)
      expect(html).toContain('Bring <strong>a chair</strong>.')
      expect(html).not.toContain('a hat')
    }
    // An address that is no event is no page.
    expect((await get(server, '/calendar/edited-picnic-2')).status).toBe(404)
  })

  it('of a product: drawn on its page, plain words on its card, plain text with absolute links in /api/marketplace', async () => {
    const response = await post(
      server,
      '/admin/products/new',
      { name: 'Markdown soap', description: description('product'), category: 'crafts' },
      admin,
    )
    expect(response.status).toBe(302)
    expectMarkdownDrawn(await page('/marketplace/markdown-soap'), 'product')
    const list = await page('/marketplace')
    const card = list.slice(list.indexOf('Markdown soap'), list.indexOf('</li>', list.indexOf('Markdown soap')))
    expect(card).toContain('Bring product friends.\nDoors open early.\n\nSee our support page or the map.')
    expect(card).not.toContain('**')
    const { products } = (await (await get(server, '/api/marketplace')).json()) as {
      products: { slug: string; description: string }[]
    }
    expect(products.find((p) => p.slug === 'markdown-soap')?.description).toBe(
      `Bring product friends.\nDoors open early.\n\nSee our support page (${server.url}/support) or the map (https://maps.example.org/x).`,
    )
  })

  it("of a product: an edit shows on the marketplace's card at once, though a kept product's links are cut once", async () => {
    const fields = { name: 'Linked soap', description: 'Order at https://shop.example.org/one', category: 'crafts' }
    expect((await post(server, '/admin/products/new', fields, admin)).status).toBe(302)
    expect(await page('/marketplace')).toContain('href="https://shop.example.org/one"')
    const [{ id }] = await queryServerDatabase<{ id: string }>(server, "select id from products where slug = 'linked-soap'")
    const edit = { ...fields, description: 'Order at https://shop.example.org/two' }
    expect((await post(server, `/admin/products/${id}`, edit, admin)).status).toBe(302)
    const list = await page('/marketplace')
    expect(list).toContain('href="https://shop.example.org/two"')
    expect(list).not.toContain('shop.example.org/one')
  })

  it('of a gallery item: drawn on its page (and so in its dialog)', async () => {
    const response = await post(
      server,
      '/admin/photos',
      {
        intent: 'upload',
        files: await uploadOverHttp(server, admin, await plainPng(800, 600), 'markdown.png', 'image/png'),
        title: 'Markdown moment',
        description: description('photo'),
        category: 'Community',
      },
      admin,
    )
    expect(response.status).toBe(302)
    expectMarkdownDrawn(await page('/photos/markdown-moment'), 'photo')
  })

  it('keep an old plain description readable: its line breaks and paragraphs stay', async () => {
    const html = await page('/calendar/monthly-food-and-clothing-distribution')
    expect(html).toMatch(/class="markdown-text event-description"><p>[^<*]+<\/p>/)
  })
})
