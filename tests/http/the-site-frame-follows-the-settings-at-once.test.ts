import { describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// The navigation and the footer are rendered once per address and settings and sent again
// (components/kept-markup.tsx): a change of settings must show on the next page, and each page
// must still mark itself in the navigation.
const { server, admin } = await startServerForFileSignedIn()

async function frame(path: string, cookie?: string) {
  const html = await (await get(server, path, cookie)).text()
  const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'))
  const footer = html.slice(html.indexOf('<footer'), html.indexOf('</footer>'))
  return { header, footer }
}

describe('the site frame', () => {
  it('marks the page shown in the navigation, each page its own', async () => {
    for (const round of [1, 2]) {
      for (const [path, current] of [
        ['/about', ['About Us', 'About Us']],
        ['/calendar', ['Calendar', 'Calendar']],
        ['/news/monthly-food-and-clothing-distribution', ['News', 'News']],
        // Not in the navigation.
        ['/services', []],
      ] as const) {
        const { header } = await frame(path)
        const marked = [...header.matchAll(/<a aria-current="page" class="nav-link[^"]*" href="[^"]*"[^>]*>([^<]*)</g)]
        // Twice: in the wide bar and in the phone menu.
        expect(
          marked.map((match) => match[1]),
          `${path}, round ${round}`,
        ).toEqual(current)
      }
    }
  })

  it('shows changed settings on the next page, to visitors and to the signed-in administrator', async () => {
    const before = await frame('/about')
    expect(before.header).toContain('Hearts of Hope Ministry')
    expect(before.footer).not.toContain('555 0199')

    const settings = {
      organisationName: 'Hearts of Hope Renamed',
      email: 'info@example.org',
      timeZone: 'America/Antigua',
      phone: '+1 268 555 0199',
    }
    expect((await post(server, '/admin/settings', settings, admin)).status).toBe(302)

    for (const cookie of [undefined, admin]) {
      for (const path of ['/about', '/contact', '/news']) {
        const { header, footer } = await frame(path, cookie)
        expect(header, path).toContain('Hearts of Hope Renamed')
        expect(footer, path).toContain('Hearts of Hope Renamed')
        expect(footer, path).toContain('555 0199')
      }
    }
  })
})
