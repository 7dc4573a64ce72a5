/**
 * Where the server's time goes when the page cache cannot help: the built server runs with
 * `node --cpu-prof` and PAGE_CACHE_SECONDS=0 on a restarted demo site, autocannon asks for the
 * pages below in turn (50 connections, BENCH_DURATION seconds each, default 5), and the profile
 * written at its exit is summarised: self time by function, by package, and time spent inside
 * each function (its callees included). `npm run bench:profile`; the .cpuprofile is kept (its
 * path is printed) for Chrome's DevTools.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { ADMIN, signIn } from '../tests/setup/http-session'
import { buildApp, startBenchServer } from './bench-server'
import { printTable } from './print-table'
import { discoverItemPages } from './public-pages'

const duration = Number(process.env.BENCH_DURATION ?? 5)
const connections = 50
const TOP = 25

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Where a function lives: a package, the site's build, Node itself, or V8's own entries. */
function placeOf({ url }: CallFrame): string {
  if (!url) return 'V8 / native'
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1]
  if (pkg) return pkg
  if (url.startsWith('node:')) return 'node'
  if (url.includes('/server/')) return 'site'
  return url
}

function nameOf(frame: CallFrame): string {
  const file = frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : ''
  return `${frame.functionName || '(anonymous)'} ${file}`.trim()
}

function summarise(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const selfMs = new Map<number, number>()
  // A sample's time is the gap to the next one.
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000))
  const total = [...selfMs.values()].reduce((a, b) => a + b, 0)
  const idle = [...selfMs].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, ms]) => a + ms, 0)
  const busy = total - idle

  const self = new Map<string, number>()
  const byPlace = new Map<string, number>()
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame
    if (frame.functionName === '(idle)') continue
    self.set(nameOf(frame), (self.get(nameOf(frame)) ?? 0) + ms)
    byPlace.set(placeOf(frame), (byPlace.get(placeOf(frame)) ?? 0) + ms)
  }
  // Time inside each function, counted once however deep it recurses.
  const inside = new Map<string, number>()
  const onStack = new Map<string, number>()
  function walk(id: number): number {
    const node = byId.get(id)!
    const key = nameOf(node.callFrame)
    onStack.set(key, (onStack.get(key) ?? 0) + 1)
    let ms = selfMs.get(id) ?? 0
    for (const child of node.children ?? []) ms += walk(child)
    onStack.set(key, onStack.get(key)! - 1)
    if (onStack.get(key) === 0) inside.set(key, (inside.get(key) ?? 0) + ms)
    return ms
  }
  walk(profile.nodes[0].id)

  const share = (ms: number) => `${((100 * ms) / busy).toFixed(1)} %`
  const top = (map: Map<string, number>, skip: (name: string) => boolean = () => false) =>
    [...map]
      .filter(([name]) => !skip(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, ms]) => [name, ms.toFixed(0), share(ms)])
  console.log(`\n${(total / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy (shares below are of busy time)\n`)
  printTable(['self time, by function', 'ms', 'share'], top(self))
  console.log()
  printTable(['self time, by package', 'ms', 'share'], top(byPlace))
  console.log()
  const roots = /^\((root|program|idle|garbage collector)\)|^processTicksAndRejections |^runMicrotasks |^\(anonymous\) $/
  printTable(
    ['time inside, by function', 'ms', 'share'],
    top(inside, (name) => roots.test(name)),
  )
}

buildApp()
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-profile-'))
// The first start makes the demo site (its images are processed then); the profile covers only a restarted site.
const first = await startBenchServer({ adminPassword: ADMIN.password })
await first.stop({ keepData: true })
const server = await startBenchServer({
  dataDir: first.dataDir,
  adminPassword: ADMIN.password,
  env: { PAGE_CACHE_SECONDS: '0' },
  nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir],
})
try {
  const event = (await discoverItemPages(server.url)).find((page) => page.startsWith('/calendar/'))
  const cookie = await signIn(server)
  const pages = [
    ...['/', '/marketplace', '/calendar', '/news', ...(event ? [event] : []), '/about'].map((page) => ({ page, cookie: '' })),
    { page: '/admin/news', cookie },
  ]
  console.log(`Profiling ${server.url}: ${connections} connections, ${duration} s per page, accept-encoding gzip`)
  for (const { page, cookie } of pages) {
    const headers = { 'accept-encoding': 'gzip', ...(cookie ? { cookie } : {}) }
    const result = await autocannon({ url: server.url + page, connections, duration, headers })
    const failed = result.errors + result.timeouts + result.non2xx
    console.log(
      `  ${page}${cookie ? ' (signed in)' : ''}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${failed} failed`,
    )
  }
} finally {
  await server.stop()
}
const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))
if (!file) throw new Error(`The server wrote no profile into ${profileDir}.`)
console.log(`\nProfile: ${path.join(profileDir, file)}`)
summarise(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile)
