import { afterAll, expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// `npm run dev` (server/dev.ts): the site's modules loaded through Vite, not the build. Packages
// reach it in their ES module builds where the built server gets CommonJS ones (rrule, ...).
const server = await startTestServer({}, { script: 'dev' })
afterAll(() => server.stop())

it('serves the public pages, repeating events and the marketplace included, as the built site does', async () => {
  const calendar = await get(server, '/calendar')
  expect(calendar.status).toBe(200)
  const html = await calendar.text()
  const event = html.match(/href="(\/calendar\/[a-z0-9-]+\?date=[0-9-]+)"/)![1]
  for (const path of ['/', '/about', '/news', '/marketplace', event]) {
    const page = await get(server, path)
    expect(page.status, path).toBe(200)
    expect(await page.text(), path).toContain('<h1')
  }
}, 120_000)
