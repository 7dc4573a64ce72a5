import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../setup/server'

const PUBLIC_PAGES = ['/', '/about', '/services', '/support', '/impact', '/contact']

function metaContent(html: string, attribute: 'property' | 'name', key: string): string | undefined {
  const tag = html.match(new RegExp(`<meta[^>]*${attribute}="${key}"[^>]*>`))?.[0]
  return tag?.match(/content="([^"]*)"/)?.[1]
}

describe('search engines and link previews', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('lists every public page and news article in sitemap.xml with absolute URLs, and no admin or sign-in page', async () => {
    const res = await fetch(`${server.url}/sitemap.xml`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/)
    const xml = await res.text()
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/)
    const urls = [...xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/url>/g)].map((m) => ({
      path: new URL(m[1]).pathname,
      absolute: m[1].startsWith(`${server.url}/`),
      lastmod: m[2],
    }))
    expect(urls).toHaveLength(xml.match(/<url>/g)!.length)
    expect(urls.every((url) => url.absolute)).toBe(true)
    expect(urls.slice(0, PUBLIC_PAGES.length).map((url) => url.path)).toEqual(PUBLIC_PAGES)

    // The news list and the demo articles, each with the time it last changed.
    const news = urls.find((url) => url.path === '/news')
    const article = urls.find((url) => url.path === '/news/monthly-food-and-clothing-distribution')
    expect(news?.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    expect(article?.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    const newsHtml = await (await fetch(`${server.url}/news`)).text()
    const listedOnNews = new Set([...newsHtml.matchAll(/href="(\/news\/[a-z0-9-]+)"/g)].map((m) => m[1]))
    expect(listedOnNews.size).toBeGreaterThan(0)
    const articlesInSitemap = urls.filter((url) => url.path.startsWith('/news/')).map((url) => url.path)
    expect(articlesInSitemap.sort()).toEqual([...listedOnNews].sort())

    // The gallery and its demo items (the demo video too: it is converted by now).
    expect(urls.find((url) => url.path === '/photos')?.lastmod).toMatch(/^\d{4}-/)
    const photosHtml = await (await fetch(`${server.url}/photos`)).text()
    const listedOnPhotos = new Set([...photosHtml.matchAll(/href="(\/photos\/[a-z0-9-]+)"/g)].map((m) => m[1]))
    expect(listedOnPhotos.size).toBe(8)
    const itemsInSitemap = urls.filter((url) => url.path.startsWith('/photos/')).map((url) => url.path)
    expect(itemsInSitemap.sort()).toEqual([...listedOnPhotos].sort())

    expect(urls.some((url) => url.path.startsWith('/admin'))).toBe(false)
    expect(xml).not.toContain('/admin')
    expect(xml).not.toContain('/login')
  })

  it('serves robots.txt that keeps crawlers out of the admin and points to the sitemap', async () => {
    const res = await fetch(`${server.url}/robots.txt`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const lines = (await res.text()).split('\n')
    expect(lines).toContain('User-agent: *')
    expect(lines).toContain('Disallow: /admin')
    expect(lines).toContain(`Sitemap: ${server.url}/sitemap.xml`)
  })

  it('gives every public page an absolute og:image that is a 1200x630 JPEG under 300 KB', async () => {
    const images = new Set<string>()
    for (const path of [...PUBLIC_PAGES, '/news', '/photos']) {
      const html = await (await fetch(server.url + path)).text()
      const image = metaContent(html, 'property', 'og:image')
      expect(image, path).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
      expect(metaContent(html, 'property', 'og:url'), path).toBe(new URL(path, server.url).toString())
      images.add(image!)
    }
    for (const image of images) {
      const res = await fetch(image)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/jpeg')
      const bytes = Buffer.from(await res.arrayBuffer())
      expect(bytes.length).toBeLessThan(300 * 1024)
      const { width, height, format } = await sharp(bytes).metadata()
      expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'jpeg' })
    }
  })
})

describe('with PUBLIC_URL set', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: 'https://charity.example.org' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('builds canonical, social-preview and sitemap URLs from it, not from the request', async () => {
    const html = await (await fetch(`${server.url}/about`)).text()
    expect(html).toContain('<link rel="canonical" href="https://charity.example.org/about"/>')
    expect(metaContent(html, 'property', 'og:url')).toBe('https://charity.example.org/about')
    expect(metaContent(html, 'property', 'og:image')).toBe('https://charity.example.org/social-preview.jpg')
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text()
    expect(xml).toContain('<loc>https://charity.example.org/support</loc>')
    expect(await (await fetch(`${server.url}/robots.txt`)).text()).toContain('Sitemap: https://charity.example.org/sitemap.xml')
  })
})
