import { afterAll, describe, expect, it } from 'vitest'
import { addDays, todayIn, wallClockIn } from '../../app/platform/dates'
import { plainPng } from '../fixtures/images'
import { get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { createFakeClock } from '../setup/fake-clock'
import { startTestServer } from '../setup/server'
import { uploadOverHttp } from '../setup/tus-upload'

// Drafts and scheduled items of all four kinds, then every public output a visitor or a feed reader can reach.
const clock = createFakeClock()
// Kept pages live long here, so only a scheduled item's own time can renew them.
const server = await startTestServer({ ...clock.env, PAGE_CACHE_SECONDS: '3600' })
afterAll(() => server.stop())
const admin = await signIn(server)
const ZONE = 'America/Antigua'

// Scheduled a quarter of an hour ahead, on the site's clock (minutes are the form's finest step).
const publishAt = new Date(Math.ceil((Date.now() + 15 * 60_000) / 60_000) * 60_000)
const { date: publishDate, time: publishTime } = wallClockIn(publishAt, ZONE)
const SCHEDULED = { publish: 'schedule', publishDate, publishTime }
const DRAFT = { publish: 'draft' }
const NOW = { publish: 'now' }
const eventDay = addDays(todayIn(ZONE), 1)

async function addAll(marker: string, publishing: Record<string, string>): Promise<void> {
  const responses = [
    await post(server, '/admin/news/new', { title: `${marker} article`, content: `${marker} news text.`, ...publishing }, admin),
    await post(
      server,
      '/admin/events/new',
      {
        title: `${marker} event`,
        description: `${marker} gathering.`,
        location: 'Ministry Centre',
        type: 'general',
        repeat: 'none',
        repeatEnds: 'never',
        startDate: eventDay,
        startTime: '10:00',
        ...publishing,
      },
      admin,
    ),
    await post(
      server,
      '/admin/products/new',
      { name: `${marker} product`, description: `${marker} goods.`, category: 'crafts', ...publishing },
      admin,
    ),
    await post(
      server,
      '/admin/photos',
      {
        intent: 'upload',
        files: await uploadOverHttp(server, admin, await plainPng(800, 600), `${marker}.png`, 'image/png'),
        title: `${marker} photo`,
        description: `${marker} moment.`,
        category: 'Community',
        featured: 'on',
        ...publishing,
      },
      admin,
    ),
  ]
  expect(responses.map((response) => response.status)).toEqual([302, 302, 302, 302])
}

const SLUGS = (marker: string) => {
  const slug = marker.toLowerCase()
  return {
    article: `/news/${slug}-article`,
    event: `/calendar/${slug}-event`,
    eventFile: `/calendar/${slug}-event/event.ics`,
    product: `/marketplace/${slug}-product`,
    photo: `/photos/${slug}-photo`,
  }
}

// Every public output of §1: pages (with their dialogs' routes and social tags), home blocks,
// counts, feeds, the calendar files, the sitemap and the marketplace's JSON (its search below).
const LISTS = [
  '/',
  '/news',
  '/news/feed.xml',
  '/photos',
  '/photos?category=Community',
  '/calendar',
  `/calendar?month=${eventDay.slice(0, 7)}`,
  '/calendar.ics',
  '/marketplace',
  '/api/marketplace',
  '/sitemap.xml',
]

async function publicText(path: string): Promise<string> {
  const response = await get(server, path)
  expect(response.status, path).toBe(200)
  return response.text()
}

async function expectNowhere(marker: string): Promise<void> {
  for (const path of LISTS) expect(await publicText(path), path).not.toMatch(new RegExp(marker, 'i'))
  for (const path of Object.values(SLUGS(marker))) expect((await get(server, path)).status, path).toBe(404)
  // The search page repeats the words searched for: what counts is that it finds nothing.
  expect(await publicText(`/marketplace?q=${marker}`)).toContain('No products found')
  expect(await publicText(`/search?q=${marker}`)).toContain('Nothing found for')
}

const productCount = async () =>
  ((await (await get(server, '/api/marketplace')).json()) as { products: unknown[] }).products.length

describe('drafts and scheduled items', () => {
  const before: { products: number } = { products: 0 }

  it('appear on no public page, dialog, feed, calendar file, sitemap, search or count', async () => {
    before.products = await productCount()
    await addAll('Zebradraft', DRAFT)
    await addAll('Zebralater', SCHEDULED)
    await expectNowhere('Zebradraft')
    await expectNowhere('Zebralater')
    expect(await productCount()).toBe(before.products)
  })

  it('are listed for the administrators with their state', async () => {
    const news = await (await get(server, '/admin/news', admin)).text()
    expect(news).toMatch(/Zebradraft article(?:(?!<\/tr>).)*Draft/s)
    expect(news).toMatch(/Zebralater article(?:(?!<\/tr>).)*Scheduled/s)
    const drafts = await (await get(server, '/admin/news?state=draft', admin)).text()
    expect(drafts).toContain('Zebradraft article')
    expect(drafts).not.toContain('Zebralater article')
  })

  it('go public by themselves at their time, on kept pages too, while drafts stay hidden', async () => {
    // Published now, added after the scheduled items: they come after them once those are out.
    await addAll('Zebranow', NOW)
    // Kept in memory before the time comes.
    await publicText('/news')
    expect((await get(server, '/news')).headers.get('x-page-cache')).toBe('hit')
    clock.setAhead(publishAt.getTime() - Date.now() + 5_000)
    const news = await publicText('/news')
    expect(news).toContain('Zebralater article')
    // Listed and dated by its publish time, not by when it was written: first.
    expect(news.match(/href="\/news\/(?!feed\.xml)([^"?]+)"/)?.[1]).toBe('zebralater-article')
    for (const path of Object.values(SLUGS('Zebralater'))) expect((await get(server, path)).status, path).toBe(200)
    expect(await publicText('/calendar.ics')).toContain('Zebralater event')
    // Photos and products too: the list, the featured moments, the marketplace and its JSON, the sitemap's dates.
    const firstTwo = (page: string, pattern: RegExp) => [...page.matchAll(pattern)].map((m) => m[1]).slice(0, 2)
    expect(firstTwo(await publicText('/photos'), /href="\/photos\/([a-z0-9-]+)"/g)).toEqual([
      'zebralater-photo',
      'zebranow-photo',
    ])
    const home = await publicText('/')
    expect(firstTwo(home.slice(home.indexOf('id="featured-moments"')), /href="\/photos\/([a-z0-9-]+)"/g)).toEqual([
      'zebralater-photo',
      'zebranow-photo',
    ])
    expect(firstTwo(await publicText('/marketplace'), /href="\/marketplace\/([a-z0-9-]+)"/g)).toEqual([
      'zebralater-product',
      'zebranow-product',
    ])
    const { products } = (await (await get(server, '/api/marketplace')).json()) as { products: { slug: string }[] }
    expect(products.slice(0, 2).map((p) => p.slug)).toEqual(['zebralater-product', 'zebranow-product'])
    const sitemap = await publicText('/sitemap.xml')
    for (const path of ['/marketplace/zebralater-product', '/photos/zebralater-photo', '/news/zebralater-article']) {
      expect(sitemap, path).toContain(`${path}</loc><lastmod>${publishAt.toISOString()}</lastmod>`)
    }
    expect(await productCount()).toBe(before.products + 2)
    expect(await publicText('/search?q=Zebralater')).toContain('4 results')
    await expectNowhere('Zebradraft')
  })
})

/** The four items of `marker`, deleted the way an administrator deletes each kind: they go to the trash. */
async function trashAll(marker: string): Promise<void> {
  const idOf = async (table: string, column: string) => {
    const [row] = await queryServerDatabase<{ id: string }>(server, `select id from ${table} where ${column} like '${marker}%'`)
    return row!.id
  }
  const deletions: [string, Record<string, string>][] = [
    ['/admin/news', { id: await idOf('articles', 'title') }],
    ['/admin/events', { id: await idOf('events', 'title') }],
    ['/admin/products', { intent: 'delete', id: await idOf('products', 'name') }],
    ['/admin/photos', { intent: 'delete', id: await idOf('media_items', 'title') }],
  ]
  for (const [path, fields] of deletions) expect((await post(server, path, fields, admin)).status, path).toBe(302)
}

describe('items in the trash', () => {
  it('leave every public page, dialog, feed, calendar file, sitemap, search and count at once', async () => {
    const before = await productCount()
    await addAll('Zebragone', NOW)
    for (const path of Object.values(SLUGS('Zebragone'))) expect((await get(server, path)).status, path).toBe(200)
    expect(await productCount()).toBe(before + 1)
    await trashAll('Zebragone')
    await expectNowhere('Zebragone')
    expect(await productCount()).toBe(before)
  })
})
