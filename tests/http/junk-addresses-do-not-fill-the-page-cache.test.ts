import fs from 'node:fs'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { describe, expect, it } from 'vitest'
import { get, getRaw } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'
import { startServerForFile } from '../setup/server-for-file'

const server = await startServerForFile()

/** The server process's resident memory now, in MB (Linux /proc). */
function residentMemory(): number {
  const status = fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8')
  return Number(status.match(/VmRSS:\s+(\d+) kB/)![1]) / 1024
}

async function homePageRate(): Promise<number> {
  const result = await autocannon({ url: `${server.url}/`, connections: 10, duration: 2, headers: { 'accept-encoding': 'gzip' } })
  expect(result.non2xx + result.errors).toBe(0)
  return result.requests.average
}

/** Sends `count` requests, 50 at a time, to the addresses `pathOf` gives; stops after `seconds` at most. */
function flood(count: number, seconds: number, pathOf: (n: number) => string): Promise<autocannon.Result> {
  let n = 0
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.url,
        connections: 50,
        amount: count,
        headers: { 'accept-encoding': 'gzip, br' },
        requests: [{ setupRequest: (request) => ({ ...request, path: pathOf(n++) }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    )
    setTimeout(() => instance.stop(), seconds * 1000).unref()
  })
}

async function cacheState(path: string) {
  const response = await get(server, path)
  return { status: response.status, cache: response.headers.get('x-page-cache'), body: await response.text() }
}

describe('addresses with parameters no page reads', () => {
  it('are answered with the page they name: 2,000 of them leave the home page fast and the memory small', async () => {
    await homePageRate() // warm up
    const before = await homePageRate()
    const junk = [
      '/?a=',
      '/news?utm_source=',
      '/about?fbclid=',
      '/calendar?x=',
      '/calendar.ics?x=',
      '/news/feed.xml?x=',
      '/api/marketplace?x=',
      '/_root.data?x=',
      '/news.data?_routes=junk-',
    ]
    let largestMemory = residentMemory()
    const sampler = setInterval(() => (largestMemory = Math.max(largestMemory, residentMemory())), 100)
    const result = await flood(2_000, 20, (n) => `${junk[n % junk.length]}${n}`).finally(() => clearInterval(sampler))
    const after = await homePageRate()

    expect(result['2xx'], 'junk addresses answered within 20 s').toBe(2_000)
    expect(after / before).toBeGreaterThanOrEqual(0.5)
    expect(largestMemory).toBeLessThan(300)
    for (const path of ['/?a=new', '/news?utm_source=new', '/calendar.ics?x=new', '/_root.data?x=new']) {
      expect((await get(server, path)).headers.get('x-page-cache'), path).toBe('hit')
    }
  })
})

describe('a page that reads a parameter', () => {
  it('is kept once per value of it, whatever else the address carries', async () => {
    for (const path of ['/calendar?month=2026-03', '/marketplace?category=crafts', '/news?page=1']) {
      const first = await cacheState(path)
      expect(first.status, path).toBe(200)
      const again = await cacheState(`${path}&fbclid=abc`)
      expect(again.cache, path).toBe('hit')
      expect(again.body).toBe(first.body)
    }
    const march = await cacheState('/calendar?month=2026-03')
    const april = await cacheState('/calendar?x=1&month=2026-04')
    expect(april.cache).toBe('miss')
    expect(march.body).toContain('March 2026')
    expect(april.body).toContain('April 2026')
    expect((await cacheState('/calendar?month=2026-04')).cache).toBe('hit')

    const crafts = await cacheState('/marketplace?category=crafts')
    const clothing = await cacheState('/marketplace?category=clothing')
    expect(clothing.cache).toBe('miss')
    expect(clothing.body).not.toBe(crafts.body)
    // The page still gets the value: a page past the last is not found.
    expect((await get(server, '/news?utm_source=x&page=999')).status).toBe(404)
  })

  it('gives its data to the browser per value too', async () => {
    const data = (month: string) => `/calendar.data?month=${month}&_routes=routes%2Fpublic%2Fcalendar`
    const march = await cacheState(data('2026-03'))
    expect(march.status).toBe(200)
    expect((await cacheState(`${data('2026-03')}&x=1`)).cache).toBe('hit')
    const april = await cacheState(data('2026-04'))
    expect(april.cache).toBe('miss')
    expect(april.body).not.toBe(march.body)
  })
})

/** The processor time a server process has used so far, all its threads, in clock ticks (Linux /proc). */
function processorTime(site: TestServer): number {
  const fields = fs.readFileSync(`/proc/${site.process.pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return Number(fields[11]) + Number(fields[12]) // utime and stime
}

describe('a page made for one visitor', () => {
  it('costs about what it costs without the page cache', async () => {
    const uncached = await startTestServer({ PAGE_CACHE_SECONDS: '0' }, { sharedDatabase: server.database })
    try {
      /** The processor time `site` spends on a search nobody made before, asked as browsers ask. */
      async function search(site: TestServer, words: string): Promise<number> {
        const before = processorTime(site)
        const response = await get(site, `/marketplace?q=${words}`, undefined, { 'accept-encoding': 'gzip, deflate, br' })
        expect(response.status).toBe(200)
        await response.arrayBuffer()
        return processorTime(site) - before
      }
      for (let i = 0; i < 10; i++) await Promise.all([search(server, `warm-up-${i}`), search(uncached, `warm-up-${i}`)])
      let withCache = 0
      let without = 0
      for (let i = 0; i < 200; i++) {
        withCache += await search(server, `kept-${i}`)
        without += await search(uncached, `made-${i}`)
      }
      // Kept or not, a page's first visitor waits for its compression; what the page cache adds is
      // keeping the page (its nonce replaced by hashes, a copy in memory).
      expect(withCache / without).toBeLessThan(1.5)
    } finally {
      await uncached.stop()
    }
  })

  it('is compressed in the encoding its first visitor prefers, and later visitors get that copy from memory', async () => {
    const browser = { 'accept-encoding': 'gzip, deflate, br' }
    const address = '/marketplace?q=first-and-later'
    const first = await getRaw(server, address, browser)
    expect(first.headers['x-page-cache']).toBe('miss')
    expect(first.headers['content-encoding']).toBe('br')
    const later = await getRaw(server, address, browser)
    expect(later.headers['x-page-cache']).toBe('hit')
    expect(later.body.equals(first.body)).toBe(true)
    expect(zlib.brotliDecompressSync(later.body).toString()).toContain('<style id="public-stylesheet">')
  })
})
