import { describe, expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// The volunteers' guide (docs/guide/README.md) is a page of the admin area, linked from the dashboard.
const { server, admin } = await startServerForFileSignedIn()

describe('the guide', () => {
  it('is linked from the dashboard and shows its sections and screenshots', async () => {
    expect(await (await get(server, '/admin', admin)).text()).toContain('href="/admin/guide"')
    const page = await get(server, '/admin/guide', admin)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('<h1>The website, for the volunteers who keep it</h1>')
    for (const heading of ['Your first sign-in', 'A week’s tasks', 'Inviting a helper', 'Two-step sign-in', 'Backups']) {
      expect(html).toMatch(new RegExp(`<h2>\\d\\. ${heading}</h2>`))
    }
    const screenshots = [...html.matchAll(/<img src="([^"]+\.webp)" alt="([^"]+)"/g)]
    expect(screenshots.length).toBe(2)
    for (const [, src, alt] of screenshots) {
      expect(alt.length).toBeGreaterThan(20)
      const image = await get(server, src)
      expect(image.status, src).toBe(200)
      expect(image.headers.get('content-type')).toBe('image/webp')
    }
    // Nothing of the Markdown is left as text.
    expect(html).not.toMatch(/\]\(|!\[|\*\*/)
  })
})
