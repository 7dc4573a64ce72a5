/**
 * Processor time per request of two versions of the site, side by side: on a shared machine the
 * requests per second of two runs minutes apart differ by more than most changes, while the
 * processor time a server spends per request barely moves. `npm run bench:compare -- <git ref>`
 * builds that ref (default: HEAD) and the working tree, starts each on its own restarted demo
 * site with PAGE_CACHE_SECONDS=0, and asks each page BENCH_REQUESTS times (default 1,000) at 50
 * connections, in the order before, after, after, before. It prints the server process's user +
 * system time per request (/proc: the thread pool's compression counts), that of its main thread
 * alone (which one process cannot spread over the machine's cores), the requests per second, and
 * the largest resident memory of each version. BENCH_PAGES=/about,/news/*,/admin/news asks for these pages
 * instead (`/news/*`: an article; /admin/… signed in). BENCH_BEFORE_BUILD=<folder> measures a build made
 * elsewhere instead of the ref (an old version built in its own checkout, with its own dependencies).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { ADMIN, signIn } from '../tests/setup/http-session'
import { buildApp, buildDir, root, startBenchServer, type BenchServer } from './bench-server'
import { printTable } from './print-table'
import { pagesAsked } from './public-pages'

const ref = process.argv[2] ?? 'HEAD'
if (ref.startsWith('-')) throw new Error(`Not a git ref: ${ref}`)
const requests = Number(process.env.BENCH_REQUESTS ?? 1000)
const connections = 50
const headers = { 'accept-encoding': 'br, gzip' }
const TICKS_PER_SECOND = 100

/** User + system time of a process, or of its main thread, so far, in ms (Linux /proc; clock ticks are 10 ms). */
function processorMs(pid: number, mainThreadOnly = false): number {
  const file = mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`
  const fields = fs.readFileSync(file, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

/** The largest resident memory of a process so far, in MB (Linux /proc). */
function peakMemory(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/)?.[1] ?? 0) / 1024
}

/** The given ref built in a worktree of its own (sharing node_modules), into its own build folder. */
function buildRef(): { buildDir: string; remove: () => void } {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'site-before-'))
  execFileSync('git', ['worktree', 'add', '--detach', tree, ref], { cwd: root, stdio: 'ignore' })
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'))
  const dir = path.join(root, 'build-before')
  console.log(`Building ${ref} into ${path.relative(root, dir)} …`)
  execFileSync(path.join(root, 'node_modules/.bin/react-router'), ['build'], {
    cwd: tree,
    env: { ...process.env, BUILD_DIR: dir, NODE_ENV: 'production' },
    stdio: 'ignore',
  })
  return {
    buildDir: dir,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'ignore' })
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A server of the given build on a restarted demo site of its own (migrations differ between versions). */
async function restartedSite(dir: string): Promise<BenchServer> {
  const first = await startBenchServer({ buildDir: dir, adminPassword: ADMIN.password })
  await first.stop({ keepData: true })
  return startBenchServer({
    buildDir: dir,
    dataDir: first.dataDir,
    adminPassword: ADMIN.password,
    env: { PAGE_CACHE_SECONDS: '0' },
  })
}

interface Sample {
  ms: number
  mainThreadMs: number
  requestsPerSecond: number
}

async function measure(server: BenchServer, page: string, cookie: string): Promise<Sample> {
  const options = { url: server.url + page, connections, headers: cookie ? { ...headers, cookie } : headers }
  await autocannon({ ...options, amount: Math.ceil(requests / 5) }) // warm up
  const [before, mainBefore] = [processorMs(server.pid), processorMs(server.pid, true)]
  const result = await autocannon({ ...options, amount: requests })
  const failed = result.errors + result.timeouts + result.non2xx
  if (failed > 0) throw new Error(`${page}: ${failed} of ${requests} requests failed`)
  return {
    ms: (processorMs(server.pid) - before) / requests,
    mainThreadMs: (processorMs(server.pid, true) - mainBefore) / requests,
    requestsPerSecond: result.requests.average,
  }
}

// A build made elsewhere, with its own node_modules (a version whose dependencies differ): measured as it is.
const builtBefore = process.env.BENCH_BEFORE_BUILD
const before = builtBefore ? { buildDir: path.resolve(builtBefore), remove: () => {} } : buildRef()
buildApp()
const servers = { before: await restartedSite(before.buildDir), after: await restartedSite(buildDir) }
try {
  const cookies = { before: await signIn(servers.before), after: await signIn(servers.after) }
  const paths = await pagesAsked(servers.after.url, [
    ...['/', '/marketplace', '/calendar', '/news', '/calendar/*', '/about'],
    ...['/admin', '/admin/news', '/admin/photos', '/admin/products'],
  ])
  const pages = paths.map((page) => ({ page, signedIn: page.startsWith('/admin') }))
  console.log(`${requests} requests per page and version, ${connections} connections, load average ${os.loadavg()[0].toFixed(1)}`)
  const rows: string[][] = []
  for (const { page, signedIn } of pages) {
    const samples: Record<'before' | 'after', Sample[]> = { before: [], after: [] }
    for (const version of ['before', 'after', 'after', 'before'] as const) {
      samples[version].push(await measure(servers[version], page, signedIn ? cookies[version] : ''))
    }
    const mean = (list: Sample[], key: keyof Sample) => list.reduce((sum, s) => sum + s[key], 0) / list.length
    const [msBefore, msAfter] = [mean(samples.before, 'ms'), mean(samples.after, 'ms')]
    const [mainBefore, mainAfter] = [mean(samples.before, 'mainThreadMs'), mean(samples.after, 'mainThreadMs')]
    rows.push([
      page + (signedIn ? ' (signed in)' : ''),
      msBefore.toFixed(2),
      msAfter.toFixed(2),
      (msBefore / msAfter).toFixed(2),
      mainBefore.toFixed(2),
      mainAfter.toFixed(2),
      (mainBefore / mainAfter).toFixed(2),
      mean(samples.before, 'requestsPerSecond').toFixed(0),
      mean(samples.after, 'requestsPerSecond').toFixed(0),
    ])
  }
  console.log(`\nload average at the end ${os.loadavg()[0].toFixed(1)}\n`)
  printTable(
    [
      'page',
      'before ms/request',
      'after ms/request',
      'before ÷ after',
      'main thread before',
      'main thread after',
      'before ÷ after',
      'before req/s',
      'after req/s',
    ],
    rows,
  )
  const [peakBefore, peakAfter] = [peakMemory(servers.before.pid), peakMemory(servers.after.pid)]
  console.log(`\nLargest resident memory: before ${peakBefore.toFixed(0)} MB, after ${peakAfter.toFixed(0)} MB`)
} finally {
  await Promise.all([servers.before.stop(), servers.after.stop()])
  before.remove()
}
