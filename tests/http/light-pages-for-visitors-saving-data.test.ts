import { describe, expect, it } from 'vitest'
import { startServerForFile } from '../setup/server-for-file'

// Decision 032: what a visitor on prepaid data is sent, and how the page cache keeps it.
const server = await startServerForFile()

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers })

/** The widths of the article pictures a page offers in its srcsets. */
function offeredSizes(html: string): string[] {
  return [...html.matchAll(/<img [^>]*sizes="([^"]+)"/g)].map((m) => m[1])
}

describe('a visitor who saves data', () => {
  it('gets the same page with sizes that pick the smallest picture filling its box, kept apart from the usual page', async () => {
    const usual = await (await get('/news')).text()
    const first = await get('/news', { 'save-data': 'on' })
    const light = await first.text()
    expect(first.headers.get('vary')).toMatch(/Save-Data/)
    expect(offeredSizes(usual).every((sizes) => !sizes.includes('min-resolution'))).toBe(true)
    expect(offeredSizes(light).length).toBeGreaterThan(0)
    expect(offeredSizes(light).every((sizes) => sizes.includes('(min-resolution: 2dppx)'))).toBe(true)

    // Each kind of page is kept once: the usual visitor never gets the light page, nor the other way round.
    for (const [headers, html] of [
      [{}, usual],
      [{ 'save-data': 'on' }, light],
      [{ ect: '2g' }, light],
      [{ 'save-data': 'off' }, usual],
    ] as const) {
      const again = await get('/news', headers)
      expect(again.headers.get('x-page-cache'), JSON.stringify(headers)).toBe('hit')
      expect(await again.text()).toBe(html)
    }
  })

  it('cannot fill the page cache with junk in the headers: any value is one of the two pages', async () => {
    await get('/services')
    for (let i = 0; i < 5; i++) {
      const junk = await get('/services', { 'save-data': `junk-${i}`, ect: `x${i}` })
      expect(junk.headers.get('x-page-cache')).toBe('hit')
    }
  })
})

describe('the service worker', () => {
  it('is served from the top of the site, checked at every visit', async () => {
    const worker = await get('/sw.js')
    expect(worker.status).toBe(200)
    expect(worker.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(worker.headers.get('cache-control')).toBe('no-cache')
    expect(await worker.text()).toContain("addEventListener('fetch'")
  })

  it('has an offline page that ships no script and is not indexed', async () => {
    const offline = await get('/offline')
    expect(offline.status).toBe(200)
    const html = await offline.text()
    expect(html).toContain('id="offline-pages"')
    expect(html).toContain('<meta name="robots" content="noindex"/>')
    expect(html).not.toContain('<script')
  })
})
