/**
 * Throughput of every public page (and one article, photo, event and product) and of the admin
 * list pages (signed in as an administrator, so never from the page cache), each against a
 * minimal server that sends the same bytes from memory (bench/reference-server.ts) and against
 * a static file of the same server, on a restarted site (as a site runs: its demo content was
 * made at the first start); with that restart's time to its first page and the server's
 * resident memory after it and under the load (the largest while each page was asked, and over the
 * whole run). `npm run bench`; BENCH_DURATION (seconds,
 * default 10) and BENCH_CONNECTIONS (default 50) shorten or widen a run; PAGE_CACHE_SECONDS is
 * passed to the server (0: without the page cache).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import autocannon from 'autocannon'
import { ADMIN_SECTIONS } from '../app/platform/access'
import { ADMIN, signIn } from '../tests/setup/http-session'
import { buildApp, buildDir, residentMemory, root, sampleMemory, startBenchServer } from './bench-server'
import { printTable } from './print-table'
import { discoverItemPages, discoverPublicPages } from './public-pages'

const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
// Phones ask for compressed responses; so does the benchmark.
const headers = { 'accept-encoding': 'gzip' }
// The lists a volunteer works in, and the dashboard.
const ADMIN_PAGES = ['dashboard', 'news', 'events', 'gallery', 'products', 'messages', 'audit'] as const

interface Measured {
  requestsPerSecond: number
  p99: number
  failed: number
}

async function measure(url: string, cookie?: string): Promise<Measured> {
  const result = await autocannon({ url, connections, duration, headers: cookie ? { ...headers, cookie } : headers })
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
  }
}

/** The built asset whose size is closest to `bytes` (hashed, so served from memory with immutable caching). */
function assetOfSimilarSize(bytes: number): string {
  const dir = path.join(root, buildDir, 'client/assets')
  const assets = fs
    .readdirSync(dir)
    .filter((name) => !/\.(br|gz)$/.test(name))
    .map((name) => ({ urlPath: `/assets/${name}`, size: fs.statSync(path.join(dir, name)).size }))
  assets.sort((a, b) => Math.abs(a.size - bytes) - Math.abs(b.size - bytes))
  return assets[0].urlPath
}

/** Starts the reference server with these pages' bytes, gzipped once. */
async function startReferenceServer(pages: Map<string, string>) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-reference-')), 'pages.json')
  fs.writeFileSync(
    file,
    JSON.stringify(Object.fromEntries([...pages].map(([p, html]) => [p, zlib.gzipSync(html).toString('base64')]))),
  )
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/reference-server.ts', file], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const match = String(d).match(/Listening on (http:\/\/\S+)/)
      if (match) resolve(match[1])
    })
    child.once('exit', (code) => reject(new Error(`The reference server exited with code ${code}`)))
  })
  return {
    url,
    stop: () => {
      child.kill('SIGTERM')
      fs.rmSync(path.dirname(file), { recursive: true, force: true })
    },
  }
}

const ratio = (a: number, b: number) => (a / b).toFixed(2)

buildApp()
const cacheSeconds = process.env.PAGE_CACHE_SECONDS
// The first start makes the demo site (its images are processed then); a site runs on after a
// restart, so that is what is measured: its start, then its pages and memory under load.
const first = await startBenchServer({ adminPassword: ADMIN.password })
const firstMemory = residentMemory(first.pid)
await first.stop({ keepData: true })
const server = await startBenchServer({
  dataDir: first.dataDir,
  adminPassword: ADMIN.password,
  env: cacheSeconds === undefined ? {} : { PAGE_CACHE_SECONDS: cacheSeconds },
})
let stopReference = () => {}
try {
  console.log(`Server at ${server.url} (existing SQLite site with demo content; PAGE_CACHE_SECONDS=${cacheSeconds ?? 'default'})`)
  const startMemory = residentMemory(server.pid)
  const pages = [...(await discoverPublicPages(server.url)), ...(await discoverItemPages(server.url))]
  if (pages.length === 0) throw new Error('No public page answered 200: nothing to measure.')
  const adminCookie = await signIn(server)
  const adminPages = ADMIN_PAGES.map((section) => ADMIN_SECTIONS[section].path)
  const html = new Map<string, string>()
  for (const page of pages) html.set(page, await (await fetch(server.url + page)).text())
  for (const page of adminPages)
    html.set(page, await (await fetch(server.url + page, { headers: { cookie: adminCookie } })).text())
  const asset = assetOfSimilarSize(Buffer.byteLength(html.get('/') ?? ''))
  // The reference sends the static file too, so that both compare with the same yardstick.
  const reference = await startReferenceServer(
    new Map([...html, [asset, fs.readFileSync(path.join(root, buildDir, 'client', asset), 'utf8')]]),
  )
  stopReference = reference.stop
  const cpus = os.cpus()
  console.log(
    `autocannon: ${connections} connections, ${duration} s per URL, accept-encoding gzip; ` +
      `Node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim()}\n`,
  )

  const largestMemory = sampleMemory(server.pid)
  const staticFile = await measure(server.url + asset)
  const rows: string[][] = []
  const measured = [
    ...pages.map((page) => ({ page, cookie: undefined })),
    ...adminPages.map((page) => ({ page, cookie: adminCookie })),
  ]
  for (const { page, cookie } of measured) {
    const pageMemory = sampleMemory(server.pid)
    const site = await measure(server.url + page, cookie)
    const memoryAfterPage = pageMemory()
    const yardstick = await measure(reference.url + page)
    rows.push([
      cookie ? `${page} (signed in)` : page,
      site.requestsPerSecond.toFixed(0),
      String(site.p99),
      String(site.failed),
      yardstick.requestsPerSecond.toFixed(0),
      ratio(site.requestsPerSecond, yardstick.requestsPerSecond),
      ratio(site.requestsPerSecond, staticFile.requestsPerSecond),
      memoryAfterPage.toFixed(0),
    ])
  }
  const staticYardstick = await measure(reference.url + asset)
  rows.push([
    `static ${asset}`,
    staticFile.requestsPerSecond.toFixed(0),
    String(staticFile.p99),
    String(staticFile.failed),
    staticYardstick.requestsPerSecond.toFixed(0),
    ratio(staticFile.requestsPerSecond, staticYardstick.requestsPerSecond),
    '1.00',
    '',
  ])
  const memory = largestMemory()
  printTable(['path', 'req/s', 'p99 ms', 'failed', 'reference req/s', 'vs reference', 'vs static', 'largest MB'], rows)

  console.log(`\nStart on the existing site, process start to the first 200 of /: ${server.startMs.toFixed(0)} ms`)
  console.log(`Resident memory after that first page: ${startMemory.toFixed(0)} MB`)
  console.log(`Largest resident memory under the load above: ${memory.toFixed(0)} MB`)
  console.log(`(The first start, which made the demo site and processed its images, ended at ${firstMemory.toFixed(0)} MB.)`)
} finally {
  stopReference()
  await server.stop()
}
