/**
 * Throughput of every public page against a static file of similar size from the same server.
 * `npm run bench`; BENCH_DURATION (seconds, default 10) and BENCH_CONNECTIONS (default 50)
 * shorten or widen a run.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { buildApp, buildDir, root, startBenchServer } from './bench-server'
import { printTable } from './print-table'
import { discoverPublicPages } from './public-pages'

const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
// Phones ask for compressed responses; so does the benchmark.
const headers = { 'accept-encoding': 'gzip' }

interface Row {
  path: string
  requestsPerSecond: number
  p50: number
  p99: number
  errors: number
  non2xx: number
}

async function measure(url: string, label: string): Promise<Row> {
  const result = await autocannon({ url, connections, duration, headers })
  return {
    path: label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}

/** The built asset whose size is closest to `bytes` (hashed, so served with immutable caching). */
function assetOfSimilarSize(bytes: number): { urlPath: string; size: number } {
  const dir = path.join(root, buildDir, 'client/assets')
  const assets = fs
    .readdirSync(dir)
    .map((name) => ({ urlPath: `/assets/${name}`, size: fs.statSync(path.join(dir, name)).size }))
    .filter((a) => a.size > 0)
  assets.sort((a, b) => Math.abs(a.size - bytes) - Math.abs(b.size - bytes))
  return assets[0]
}

function printResults(rows: Row[], staticRps: number) {
  const header = ['path', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'page/static']
  const lines = rows.map((r) => [
    r.path,
    r.requestsPerSecond.toFixed(0),
    String(r.p50),
    String(r.p99),
    String(r.errors),
    String(r.non2xx),
    (r.requestsPerSecond / staticRps).toFixed(2),
  ])
  printTable(header, lines)
}

buildApp()
const server = await startBenchServer()
try {
  console.log(`Server at ${server.url} (fresh SQLite database with demo content)`)
  const pages = await discoverPublicPages(server.url)
  if (pages.length === 0) throw new Error('No public page answered 200: nothing to measure.')

  const homeBytes = Buffer.byteLength(await (await fetch(server.url)).text())
  const asset = assetOfSimilarSize(homeBytes)
  const assetRes = await fetch(server.url + asset.urlPath)
  await assetRes.body?.cancel()
  if (assetRes.status !== 200) throw new Error(`The static asset ${asset.urlPath} answered ${assetRes.status}.`)

  const cpus = os.cpus()
  console.log(
    `autocannon: ${connections} connections, ${duration} s per URL, accept-encoding gzip; ` +
      `Node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim()}`,
  )
  console.log(`Static reference: ${asset.urlPath} (${asset.size} bytes; home page HTML ${homeBytes} bytes)\n`)

  const staticRow = await measure(server.url + asset.urlPath, `static ${asset.urlPath}`)
  const rows: Row[] = []
  for (const page of pages) rows.push(await measure(server.url + page, page))
  printResults([...rows, staticRow], staticRow.requestsPerSecond)
} finally {
  await server.stop()
}
