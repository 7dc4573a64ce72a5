import { afterAll, describe, expect, it } from 'vitest'
import { get, signIn } from '../setup/http-session'
import { execOnServerDatabase } from '../setup/server-database'
import { startTestServer } from '../setup/server'

// A product's and a photo's own part of their page is rendered once and sent again to every
// visitor (KeptInside, decision 043). Without the page cache, so that every page below is rendered.
const server = await startTestServer({ PAGE_CACHE_SECONDS: '0' })
afterAll(() => server.stop())

const KINDS = [
  {
    address: '/marketplace/banana-bread-loaf',
    opening: '<div class="product-detail-layout">',
    rename: `update products set name = 'Banana Bread, Large', price_cents = 1850 where slug = 'banana-bread-loaf'`,
    shows: ['<h1 id="product-name">Banana Bread, Large</h1>', '$18.50'],
  },
  {
    address: '/photos/monthly-distribution-morning',
    opening: '<div><div class="gallery-media">',
    rename: `update media_items set title = 'The distribution, early' where slug = 'monthly-distribution-morning'`,
    shows: ['<h1 id="media-title">The distribution, early</h1>'],
  },
]

/** The `sizes` of the pictures in `html`. */
const sizesOf = (html: string) => [...html.matchAll(/<img [^>]*sizes="([^"]+)"/g)].map((m) => m[1])

for (const { address, opening, rename, shows } of KINDS) {
  describe(address, () => {
    /** The item's own part of its page, as sent. */
    async function itemPart(headers: Record<string, string> = {}, cookie?: string): Promise<string> {
      const response = await get(server, address, cookie, headers)
      expect(response.status).toBe(200)
      const html = await response.text()
      const start = html.indexOf(opening)
      expect(start).toBeGreaterThan(-1)
      return html.slice(start, html.indexOf('</article>', start))
    }

    it('gives a visitor who saves data the small pictures, and the next visitor the usual ones', async () => {
      const usual = await itemPart()
      expect(sizesOf(usual).length).toBeGreaterThan(0)
      expect(sizesOf(usual).every((sizes) => !sizes.includes('min-resolution'))).toBe(true)

      const light = await itemPart({ 'save-data': 'on' })
      expect(sizesOf(light).every((sizes) => sizes.includes('(min-resolution: 2dppx)'))).toBe(true)
      expect(await itemPart({ ect: '2g' })).toBe(light)

      expect(await itemPart()).toBe(usual)
    })

    it('shows a change at once, and nothing of the administrator who asked for it first', async () => {
      const before = await itemPart()
      await execOnServerDatabase(server, rename)
      // The administrator's request renders the changed piece; a visitor is then sent the same.
      const asAdministrator = await itemPart({}, await signIn(server))
      expect(asAdministrator).not.toBe(before)
      for (const text of shows) expect(asAdministrator).toContain(text)
      expect(asAdministrator).not.toMatch(/\/admin|Sign out|admin@example/)
      expect(await itemPart()).toBe(asAdministrator)
    })
  })
}

describe("an event's sign-up form, kept with the event", () => {
  const eventPage = async () => (await get(server, '/calendar/monthly-food-and-clothing-distribution')).text()
  const signupWhere = `where event_id = (select id from events where slug = 'monthly-food-and-clothing-distribution')`

  it('follows a new limit, and the form taken away, at once', async () => {
    expect(await eventPage()).toContain('40 places left.')
    await execOnServerDatabase(server, `update event_signup_forms set place_limit = 12 ${signupWhere}`)
    expect(await eventPage()).toContain('12 places left.')
    await execOnServerDatabase(server, `delete from event_signup_forms ${signupWhere}`)
    const without = await eventPage()
    expect(without).toContain('<h1 id="event-title">')
    expect(without).not.toContain('event-signup')
  })
})

describe("the calendar's month", () => {
  /** The month's navigation, grid and agenda, as sent. */
  async function month(cookie?: string): Promise<string> {
    const html = await (await get(server, '/calendar', cookie)).text()
    const start = html.indexOf('<section class="calendar-month"')
    expect(start).toBeGreaterThan(-1)
    return html.slice(start, html.indexOf('</section>', start))
  }

  it('shows an event renamed at once, and a visitor after an administrator no button of theirs', async () => {
    const before = await month()
    expect(before).toContain('Cancer Survivors Support Group')
    expect(before).not.toContain('Add an event on')
    await execOnServerDatabase(
      server,
      `update events set title = 'Survivors Circle' where slug = 'cancer-survivors-support-group'`,
    )
    const asAdministrator = await month(await signIn(server))
    expect(asAdministrator).toContain('Add an event on')
    expect(asAdministrator).toContain('Survivors Circle')
    const after = await month()
    expect(after).toContain('Survivors Circle')
    expect(after).not.toContain('Cancer Survivors Support Group')
    expect(after).not.toContain('Add an event on')
  })
})
