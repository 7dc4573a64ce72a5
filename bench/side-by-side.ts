/**
 * Processor time per request of the uncached public pages, for two builds (or more) side by side
 * on copies of the demo site with PAGE_CACHE_SECONDS=0: each page is asked of each build in turn,
 * BENCH_ROUNDS times (default 3), so a busy machine weighs on all of them alike (decision 037).
 * `npm run bench:side-by-side -- <build folder> <build folder>`; the server's processor time is
 * read from /proc, so it counts only the server's work, not the load generator's.
 */
import fs from 'node:fs'
import os from 'node:os'
import autocannon from 'autocannon'
import { startBenchServer } from './bench-server'

const duration = Number(process.env.BENCH_DURATION ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const builds = process.argv.slice(2)
const pages = ['/', '/marketplace', '/calendar', '/about']
// Linux's clock ticks per second (getconf CLK_TCK).
const ticks = 100

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks
}

const servers = []
for (const buildDir of builds) {
  const first = await startBenchServer({ buildDir })
  await first.stop({ keepData: true })
  servers.push({
    buildDir,
    server: await startBenchServer({ buildDir, dataDir: first.dataDir, env: { PAGE_CACHE_SECONDS: '0' } }),
  })
}
const results = new Map<string, number[]>()
try {
  for (let round = 0; round < rounds; round++) {
    for (const page of pages) {
      for (const { buildDir, server } of servers) {
        // Warm up, then measure.
        await autocannon({ url: server.url + page, connections: 10, duration: 1 })
        const before = cpuMs(server.pid)
        const result = await autocannon({
          url: server.url + page,
          connections: 50,
          duration,
          headers: { 'accept-encoding': 'gzip' },
        })
        const used = cpuMs(server.pid) - before
        const key = `${page} ${buildDir}`
        results.set(key, [...(results.get(key) ?? []), used / result.requests.total])
        console.log(
          `${key}: ${(used / result.requests.total).toFixed(2)} ms/request, ${result.requests.average.toFixed(0)} req/s, ${result.non2xx} non-2xx, load ${os.loadavg()[0].toFixed(2)}`,
        )
      }
    }
  }
} finally {
  for (const { server } of servers) await server.stop()
}
console.log('\nMedian ms of processor time per request:')
for (const [key, values] of results) {
  const sorted = [...values].sort((a, b) => a - b)
  console.log(`${key}: ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} (${sorted.map((v) => v.toFixed(2)).join(', ')})`)
}
