import { describe, expect, it } from 'vitest'
import { plainPng } from '../fixtures/images'
import { get, post } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'
import { uploadOverHttp } from '../setup/tus-upload'

const { server, admin } = await startServerForFileSignedIn()

const HOSTILE = `Fun Day "</title><script>alert('x')</script><img src=x onerror=alert(1)>`

async function html(path: string, cookie?: string): Promise<string> {
  const response = await get(server, path, cookie)
  expect(response.status, path).toBe(200)
  return response.text()
}

function itemLinks(page: string): string[] {
  return [...page.matchAll(/href="\/photos\/([a-z0-9-]+)(?:\?[^"]*)?"/g)].map((m) => m[1])
}

function meta(page: string, property: string): string | undefined {
  return page.match(new RegExp(`<meta[^>]*property="${property}"[^>]*content="([^"]*)"`))?.[1]
}

describe('visitors', () => {
  it('see the demo gallery newest first, and one category at a time', async () => {
    const all = itemLinks(await html('/photos'))
    expect(all).toHaveLength(8)
    expect(all[0]).toBe('beach-clean-up-day')
    expect(itemLinks(await html('/photos?category=Health'))).toEqual(['flowers-of-hope'])
    expect(itemLinks(await html('/photos?category=Projects'))).toEqual(['young-entrepreneurs-market', 'youth-farming-project'])
  })

  it('get 404 for a category or page that does not exist', async () => {
    for (const path of ['/photos?category=Sports', '/photos?page=2', '/photos?page=x', '/photos/no-such-item']) {
      expect((await get(server, path)).status, path).toBe(404)
    }
  })

  it('who follow a link with a category in other letters are sent to its own address, page and item kept', async () => {
    const cases = [
      ['/photos?category=health', '/photos?category=Health'],
      ['/photos?category=PROJECTS&page=2', '/photos?category=Projects&page=2'],
      ['/photos/flowers-of-hope?category=health', '/photos/flowers-of-hope?category=Health'],
    ]
    for (const [asked, canonical] of cases) {
      const response = await get(server, asked)
      expect([response.status, response.headers.get('location')], asked).toEqual([301, canonical])
      // Kept a day, not for ever: the categories may be renamed one day.
      expect(response.headers.get('cache-control'), asked).toBe('public, max-age=86400')
    }
    // A preview link keeps its token, and its redirect is kept by no one.
    const preview = await get(server, '/photos/flowers-of-hope?category=health&preview=a-token')
    expect(preview.headers.get('location')).toBe('/photos/flowers-of-hope?category=Health&preview=a-token')
    expect(preview.headers.get('cache-control')).toBe('private, no-store')
    // A name that is no category, whatever its letters, is still not found.
    expect((await get(server, '/photos?category=sports')).status).toBe(404)
    expect((await get(server, '/photos?category=health&page=x')).status).toBe(404)
    // The browser's own data requests are sent to the page, not to another data address.
    const data = await get(server, '/photos.data?category=health')
    expect(data.status).toBe(202)
    expect(await data.text()).toContain('/photos?category=Health')
  })

  it('open a video on its own page with a poster, and its link preview shows the poster and the MP4', async () => {
    const page = await html('/photos/beach-clean-up-day')
    expect(page).toContain('<h1 id="media-title">Beach Clean-up Day</h1>')
    const video = page.match(/<video[^>]*poster="([^"]+)"[^>]*>\s*<source src="([^"]+)" type="video\/mp4"/)
    expect(video).not.toBeNull()
    expect(meta(page, 'og:image')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/images\/.+\.jpg$/)
    expect(meta(page, 'og:video')).toBe(`${server.url}${video![2]}`)
    const mp4 = await get(server, video![2], undefined, { range: 'bytes=0-99' })
    expect(mp4.status).toBe(206)
    expect(mp4.headers.get('content-type')).toBe('video/mp4')
    expect((await get(server, video![1])).headers.get('content-type')).toMatch(/^image\//)
  })

  it('see up to four featured moments on the home page, each linking to its item', async () => {
    const home = await html('/')
    expect(home).toContain('Featured Moments')
    const section = home.slice(
      home.indexOf('id="featured-moments"'),
      home.indexOf('</section>', home.indexOf('id="featured-moments"')),
    )
    expect(itemLinks(section)).toEqual([
      'beach-clean-up-day',
      'monthly-distribution-morning',
      'community-garden',
      'flowers-of-hope',
    ])
  })
})

describe('an administrator', () => {
  it('is told to choose a file, and what is missing', async () => {
    const response = await post(
      server,
      '/admin/photos',
      { intent: 'upload', title: '', description: '', category: 'Events' },
      admin,
    )
    expect(response.status).toBe(400)
    const page = await response.text()
    for (const message of ['Please select at least one file', 'Title is required', 'Description is required']) {
      expect(page).toContain(message)
    }
  })

  it('uploads a photo whose hostile title stays text in the page, the dialog route and the link preview, then deletes it', async () => {
    const id = await uploadOverHttp(server, admin, await plainPng(1200, 800), 'fun-day.png', 'image/png')
    const added = await post(
      server,
      '/admin/photos',
      {
        intent: 'upload',
        files: id,
        title: HOSTILE,
        description: `<b>bold</b> & "quoted"`,
        category: 'Community',
        featured: 'on',
      },
      admin,
    )
    expect(added.status).toBe(302)
    const [slug] = itemLinks(await html('/photos?category=Community'))
    expect(slug).toBe('fun-day-title-script-alert-x-script-img-src-x-onerror-alert-1')

    for (const page of [await html('/photos'), await html(`/photos/${slug}`), await html('/')]) {
      expect(page).not.toContain("<script>alert('x')")
      expect(page).not.toContain('<img src=x')
      expect(page).toContain('Fun Day &quot;&lt;/title&gt;&lt;script&gt;')
    }
    const itemPage = await html(`/photos/${slug}`)
    expect(meta(itemPage, 'og:title')).toMatch(/^Fun Day &quot;&lt;\/title&gt;&lt;script&gt;alert\(&#x27;x&#x27;\)/)
    // The description is Markdown: raw HTML in it is shown as text (and its quotes curled).
    expect(itemPage).toContain('<p>&lt;b&gt;bold&lt;/b&gt; &amp; “quoted”</p>')

    const list = await html('/admin/photos', admin)
    const itemId = list.match(/aria-label="Edit Fun Day[^"]*" href="\/admin\/photos\/([0-9a-f-]{36})"/)![1]
    const deleted = await post(server, '/admin/photos', { intent: 'delete', id: itemId }, admin)
    expect(deleted.status).toBe(302)
    expect((await get(server, `/photos/${slug}`)).status).toBe(404)
  })
})
