import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { asFile, elevenMegabyteJpeg, HTML_RENAMED_AS_JPEG, pixelFloodPng, plainPng } from '../fixtures/images'
import { get, post } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()

function storedImageCount(): number {
  const dir = path.join(server.database.env.DATA_DIR, 'uploads', 'images')
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0
}

async function postArticle(fields: Record<string, string>, image?: File) {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.set(name, value)
  if (image) body.set('image', image)
  return fetch(`${server.url}/admin/news/new`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, cookie: admin },
    body,
  })
}

/**
 * The items of an RSS feed as another program reads them: Python's own XML parser for the feed,
 * and its HTML parser for each item's content, of which it lists every href and src.
 */
function readFeedElsewhere(xml: string): { title: string; urls: string[] }[] {
  const script = `
import json, sys, xml.etree.ElementTree as ET
from html.parser import HTMLParser
class Urls(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []
    def handle_starttag(self, tag, attrs):
        self.urls += [value for name, value in attrs if name in ('href', 'src')]
items = []
for item in ET.fromstring(sys.stdin.buffer.read()).iter('item'):
    urls = Urls()
    urls.feed(item.findtext('{http://purl.org/rss/1.0/modules/content/}encoded', ''))
    items.append({'title': item.findtext('title'), 'urls': urls.urls})
print(json.dumps(items))
`
  return JSON.parse(execFileSync('python3', ['-c', script], { input: xml, encoding: 'utf8' }))
}

describe('news over HTTP', () => {
  it('offers an RSS feed of the articles, advertised on the news page', async () => {
    const page = await (await get(server, '/news')).text()
    expect(page).toMatch(/<link[^>]*rel="alternate"[^>]*type="application\/rss\+xml"[^>]*href="\/news\/feed.xml"/)

    const res = await get(server, '/news/feed.xml')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8')
    const xml = await res.text()
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\s*<rss version="2.0"/)
    expect(xml).toContain('<title><![CDATA[Monthly Food and Clothing Distribution]]></title>')
    expect(xml).toContain(`<link>${server.url}/news/monthly-food-and-clothing-distribution</link>`)
    expect(xml).toMatch(new RegExp(`<enclosure length="[1-9]\\d*" type="image/jpeg" url="${server.url}/media/images/`))
  })

  it('posts an article with an image and shows it in the feed', async () => {
    const before = storedImageCount()
    const res = await postArticle(
      { title: 'Back to school <drive>', content: 'We packed **120** bags.', imageAlt: 'School bags' },
      asFile(await plainPng(1300, 800), 'bags.png', 'image/png'),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/admin/news')
    expect(storedImageCount()).toBe(before + 6)
    const xml = await (await get(server, '/news/feed.xml')).text()
    expect(xml).toContain('<title><![CDATA[Back to school &#60;drive&#62;]]></title>')
    expect(xml).toContain('<p>We packed <strong>120</strong> bags.</p>')
  })

  it("makes every link and image of the feed's items absolute, for readers away from the site", async () => {
    const content =
      'Read [our support page](/support) and see ![the poster](/media/images/poster.jpg), or [write](mailto:info@example.org).'
    const res = await postArticle({ title: 'Links that work in a reader', content })
    expect(res.status).toBe(302)
    const items = readFeedElsewhere(await (await get(server, '/news/feed.xml')).text())
    const item = items.find((i) => i.title === 'Links that work in a reader')!
    expect(item.urls).toEqual([`${server.url}/support`, `${server.url}/media/images/poster.jpg`, 'mailto:info@example.org'])
    // Absolute: an address that needs no base to be read.
    expect(items.flatMap(({ urls }) => urls.filter((url) => !URL.canParse(url)))).toEqual([])
    // On the site itself the links stay as written.
    const page = await (await get(server, '/news/links-that-work-in-a-reader')).text()
    expect(page).toContain('<a href="/support">our support page</a>')
  })

  it("stores links to the site's own address as paths, shown relative on the site and absolute in the feed", async () => {
    const content = `Read [our support page](${server.url}/support?from=news), see [home](${server.url}) or [elsewhere](https://example.org/x).`
    expect((await postArticle({ title: 'Links to ourselves', content })).status).toBe(302)

    // The text as the editor shows it again: the site's own links as paths, others as typed.
    const list = await (await get(server, '/admin/news', admin)).text()
    const editLink = [...list.matchAll(/<a\b[^>]*>/g)]
      .map((m) => m[0])
      .find((tag) => tag.includes('aria-label="Edit Links to ourselves"'))
    const id = editLink?.match(/href="\/admin\/news\/([\w-]+)"/)?.[1]
    expect(id).toBeDefined()
    const edit = await (await get(server, `/admin/news/${id}`, admin)).text()
    expect(edit).toContain('Read [our support page](/support?from=news), see [home](/) or [elsewhere](https://example.org/x).')

    const page = await (await get(server, '/news/links-to-ourselves')).text()
    expect(page).toContain('<a href="/support?from=news">our support page</a>')
    expect(page).toContain('<a href="/">home</a>')
    const item = readFeedElsewhere(await (await get(server, '/news/feed.xml')).text()).find(
      (i) => i.title === 'Links to ourselves',
    )!
    expect(item.urls).toEqual([`${server.url}/support?from=news`, `${server.url}/`, 'https://example.org/x'])

    // Saving an edit does the same.
    const body = new FormData()
    body.set('title', 'Links to ourselves')
    body.set('content', `Now see [the calendar](${server.url}/calendar).`)
    const saved = await fetch(`${server.url}/admin/news/${id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, cookie: admin },
      body,
    })
    expect(saved.status).toBe(302)
    expect(await (await get(server, `/admin/news/${id}`, admin)).text()).toContain('Now see [the calendar](/calendar).')
  })

  it('keeps markup typed into a title or text inert in the feed', async () => {
    const res = await postArticle({ title: '<b>Bold</b> claim', content: 'Hi <img src=x onerror=alert(1)>' })
    expect(res.status).toBe(302)
    const xml = await (await get(server, '/news/feed.xml')).text()
    expect(xml).not.toContain('<b>Bold</b>')
    expect(xml).not.toContain('<img src=x')
    expect(xml).toContain('<title><![CDATA[&#60;b&#62;Bold&#60;/b&#62; claim]]></title>')
  })

  it('answers a form without title or content with both messages (no JavaScript needed)', async () => {
    const res = await postArticle({ title: '  ', content: '' })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('Title is required')
    expect(html).toContain('Content is required')
  })

  it.each([
    [
      'an HTML page renamed .jpg',
      () => asFile(HTML_RENAMED_AS_JPEG, 'photo.jpg'),
      'Invalid image type. Please upload a JPG, PNG, GIF, or WEBP file.',
    ],
    ['an 11 MB file', () => asFile(elevenMegabyteJpeg(), 'big.jpg'), 'Image file is too large. Maximum size is 10MB.'],
    ['a 50000 x 50000 PNG header', () => asFile(pixelFloodPng(), 'flood.png', 'image/png'), 'Image dimensions are too large.'],
  ])('refuses %s with a message and stores nothing', async (_name, file, message) => {
    const before = storedImageCount()
    const res = await postArticle({ title: 'Hostile upload', content: 'Text' }, file())
    expect(res.status).toBe(400)
    expect(await res.text()).toContain(message)
    expect(storedImageCount()).toBe(before)
    expect(await (await get(server, '/news/feed.xml')).text()).not.toContain('Hostile upload')
  })
})

describe("the feed's own title, description and copyright", () => {
  /** The text of an element as an XML reader sees it (entities decoded, CDATA unwrapped). */
  function xmlText(xml: string, tag: string): string {
    const raw = xml.match(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`))?.[1] ?? ''
    const cdata = raw.match(/^<!\[CDATA\[([\s\S]*)\]\]>$/)?.[1]
    return (
      cdata ??
      raw
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
    )
  }

  it('keep markup in the site settings inert, as the items do', async () => {
    const saved = await post(
      server,
      '/admin/settings',
      {
        organisationName: 'Hope <b>House</b>',
        tagline: '<img src=x onerror=alert(1)> & more',
        email: 'info@example.org',
        timeZone: 'America/Antigua',
      },
      admin,
    )
    expect(saved.status).toBe(302)
    const xml = await (await get(server, '/news/feed.xml')).text()
    const channel = xml.slice(0, xml.indexOf('<item>'))
    // What a reader that shows these as HTML gets: the characters, never an element.
    expect(xmlText(channel, 'title')).toBe('Latest News | Hope &#60;b&#62;House&#60;/b&#62;')
    expect(xmlText(channel, 'description')).toBe('&#60;img src=x onerror=alert(1)&#62; &#38; more')
    expect(xmlText(channel, 'copyright')).toBe('Hope &#60;b&#62;House&#60;/b&#62;')
  })
})
