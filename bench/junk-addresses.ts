/**
 * What addresses nobody shares cost the site: a client asks for thousands of distinct addresses
 * of the home page (`/?junk=N`, a parameter no page reads), then for distinct searches
 * (`/marketplace?q=N`, a page of its own each), with the page cache (the default) and without it
 * (PAGE_CACHE_SECONDS=0), on one restarted site. Reported: the rate of each, the home page's rate
 * before and right after them, and the server's largest resident memory meanwhile.
 * `npm run bench:junk`; BENCH_DURATION (seconds, default 10) per measurement.
 */
import fs from 'node:fs'
import autocannon from 'autocannon'
import { buildApp, sampleMemory, startBenchServer } from './bench-server'
import { printTable } from './print-table'

const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = 50

async function rate(url: string, pathOf?: (n: number) => string, amount?: number): Promise<number> {
  let n = 0
  const result = await autocannon({
    url,
    connections,
    duration,
    amount,
    // Browsers take brotli; the other benchmarks ask for gzip, as the home page's rate does here.
    headers: { 'accept-encoding': pathOf ? 'gzip, br' : 'gzip' },
    requests: pathOf ? [{ setupRequest: (request) => ({ ...request, path: pathOf(n++) }) }] : undefined,
  })
  return result.requests.average
}

buildApp()
// The first start makes the demo site (and processes its images); the site is measured after a restart.
const first = await startBenchServer()
await first.stop({ keepData: true })
const rows: string[][] = []
try {
  for (const [name, cacheSeconds] of [
    ['page cache', undefined],
    ['no page cache', '0'],
  ] as const) {
    const server = await startBenchServer({
      dataDir: first.dataDir,
      env: cacheSeconds ? { PAGE_CACHE_SECONDS: cacheSeconds } : {},
    })
    try {
      // Neither server is measured cold: both have made pages of every kind first.
      await rate(server.url, (n) => `/marketplace?q=warm-up-${n}`, 500)
      const before = await rate(`${server.url}/`)
      const largestMemory = sampleMemory(server.pid)
      const junk = await rate(server.url, (n) => `/?junk=${n}`)
      const searches = await rate(server.url, (n) => `/marketplace?q=${n}`)
      const memory = largestMemory()
      const after = await rate(`${server.url}/`)
      rows.push([
        name,
        before.toFixed(0),
        junk.toFixed(0),
        searches.toFixed(0),
        after.toFixed(0),
        (after / before).toFixed(2),
        memory.toFixed(0),
      ])
    } finally {
      await server.stop({ keepData: true })
    }
  }
} finally {
  fs.rmSync(first.dataDir, { recursive: true, force: true })
}
console.log(`autocannon: ${connections} connections, ${duration} s each; junk and searches are all distinct addresses\n`)
printTable(['server', 'home req/s', '/?junk=N req/s', '/marketplace?q=N req/s', 'home after', 'after/before', 'largest MB'], rows)
