/**
 * Where the server's time goes when the page cache cannot help: the built server runs with
 * `node --cpu-prof` and PAGE_CACHE_SECONDS=0 on a restarted demo site, autocannon asks for the
 * pages below in turn (50 connections, BENCH_DURATION seconds each, default 5), and the profile
 * written at its exit is summarised: self time by function, by package, and time spent inside
 * each function (its callees included). `npm run bench:profile`; the .cpuprofile is kept (its
 * path is printed) for Chrome's DevTools. `npm run bench:profile -- --allocations` counts the
 * bytes allocated instead (bench/allocation-sampler.mjs), which is what the garbage collector and
 * the process's memory under load follow.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { ADMIN, signIn } from '../tests/setup/http-session'
import { buildApp, startBenchServer } from './bench-server'
import { printTable } from './print-table'
import { pagesAsked } from './public-pages'

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

/**
 * Prints where the weight of a profile's call tree lies (processor time in ms, or bytes allocated
 * in MB): by function, by package, and inside each function (its callees included).
 */
function summarise(nodes: ProfileNode[], selfWeight: Map<number, number>, unit: 'ms' | 'MB', what: string): void {
  const byId = new Map(nodes.map((node) => [node.id, node]))
  const total = [...selfWeight.values()].reduce((a, b) => a + b, 0)
  const idleIds = nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id)
  const idle = idleIds.reduce((sum, id) => sum + (selfWeight.get(id) ?? 0), 0)
  const busy = total - idle

  const self = new Map<string, number>()
  const byPlace = new Map<string, number>()
  for (const [id, weight] of selfWeight) {
    const frame = byId.get(id)!.callFrame
    if (frame.functionName === '(idle)') continue
    self.set(nameOf(frame), (self.get(nameOf(frame)) ?? 0) + weight)
    byPlace.set(placeOf(frame), (byPlace.get(placeOf(frame)) ?? 0) + weight)
  }
  // The weight inside each function, counted once however deep it recurses.
  const inside = new Map<string, number>()
  const onStack = new Map<string, number>()
  function walk(id: number): number {
    const node = byId.get(id)!
    const key = nameOf(node.callFrame)
    onStack.set(key, (onStack.get(key) ?? 0) + 1)
    let weight = selfWeight.get(id) ?? 0
    for (const child of node.children ?? []) weight += walk(child)
    onStack.set(key, onStack.get(key)! - 1)
    if (onStack.get(key) === 0) inside.set(key, (inside.get(key) ?? 0) + weight)
    return weight
  }
  walk(nodes[0].id)

  const share = (weight: number) => `${((100 * weight) / busy).toFixed(1)} %`
  const top = (map: Map<string, number>, skip: (name: string) => boolean = () => false) =>
    [...map]
      .filter(([name]) => !skip(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, weight]) => [name, weight.toFixed(0), share(weight)])
  console.log(`\n${what}\n`)
  printTable([`self ${unit}, by function`, unit, 'share'], top(self))
  console.log()
  printTable([`self ${unit}, by package`, unit, 'share'], top(byPlace))
  console.log()
  const roots = /^\((root|program|idle|garbage collector)\)|^processTicksAndRejections |^runMicrotasks |^\(anonymous\) $/
  printTable(
    [`${unit} inside, by function`, unit, 'share'],
    top(inside, (name) => roots.test(name)),
  )
}

function summariseCpu(profile: CpuProfile): void {
  const selfMs = new Map<number, number>()
  // A sample's time is the gap to the next one.
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000))
  const idle = profile.nodes.filter((node) => node.callFrame.functionName === '(idle)')
  const idleMs = idle.reduce((sum, node) => sum + (selfMs.get(node.id) ?? 0), 0)
  const totalMs = [...selfMs.values()].reduce((a, b) => a + b, 0)
  const what = `${(totalMs / 1000).toFixed(1)} s profiled, ${((totalMs - idleMs) / 1000).toFixed(1)} s busy (shares are of busy time)`
  summarise(profile.nodes, selfMs, 'ms', what)
}

interface HeapNode {
  id: number
  callFrame: CallFrame
  children: HeapNode[]
}
interface HeapProfile {
  head: HeapNode
  samples: { nodeId: number; size: number }[]
}

function summariseAllocations(profile: HeapProfile, requests: number): void {
  const nodes: ProfileNode[] = []
  const flatten = (node: HeapNode) => {
    nodes.push({ id: node.id, callFrame: node.callFrame, children: node.children.map((child) => child.id) })
    node.children.forEach(flatten)
  }
  flatten(profile.head)
  const selfMb = new Map<number, number>()
  for (const { nodeId, size } of profile.samples) selfMb.set(nodeId, (selfMb.get(nodeId) ?? 0) + size / 2 ** 20)
  const totalMb = [...selfMb.values()].reduce((a, b) => a + b, 0)
  const what = `${totalMb.toFixed(0)} MB allocated for ${requests} requests: ${((1024 * totalMb) / requests).toFixed(0)} KB per request`
  summarise(nodes, selfMb, 'MB', what)
}

const allocations = process.argv.includes('--allocations')
buildApp()
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-profile-'))
const allocationFile = path.join(profileDir, 'allocations.heapprofile')
// The first start makes the demo site (its images are processed then); the profile covers only a restarted site.
const first = await startBenchServer({ adminPassword: ADMIN.password })
await first.stop({ keepData: true })
const server = await startBenchServer({
  dataDir: first.dataDir,
  adminPassword: ADMIN.password,
  env: { PAGE_CACHE_SECONDS: '0', ...(allocations ? { ALLOCATION_PROFILE: allocationFile } : {}) },
  nodeArgs: allocations
    ? ['--import', path.join(import.meta.dirname, 'allocation-sampler.mjs')]
    : ['--cpu-prof', '--cpu-prof-dir', profileDir],
})
let requests = 0
try {
  const cookie = await signIn(server)
  // BENCH_PAGES=/marketplace,/photos/*,/admin/photos profiles these pages instead (bench/public-pages.ts).
  const paths = await pagesAsked(server.url, ['/', '/marketplace', '/calendar', '/news', '/calendar/*', '/about', '/admin/news'])
  const pages = paths.map((page) => ({ page, cookie: page.startsWith('/admin') ? cookie : '' }))
  console.log(`Profiling ${server.url}: ${connections} connections, ${duration} s per page, accept-encoding gzip`)
  for (const { page, cookie } of pages) {
    const headers = { 'accept-encoding': 'gzip', ...(cookie ? { cookie } : {}) }
    const result = await autocannon({ url: server.url + page, connections, duration, headers })
    const failed = result.errors + result.timeouts + result.non2xx
    requests += result.requests.total
    console.log(
      `  ${page}${cookie ? ' (signed in)' : ''}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${failed} failed`,
    )
  }
} finally {
  await server.stop()
}
if (allocations) {
  if (!fs.existsSync(allocationFile)) throw new Error(`The server wrote no allocation profile into ${profileDir}.`)
  console.log(`\nProfile: ${allocationFile}`)
  summariseAllocations(JSON.parse(fs.readFileSync(allocationFile, 'utf8')) as HeapProfile, requests)
} else {
  const file = fs.readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))
  if (!file) throw new Error(`The server wrote no profile into ${profileDir}.`)
  console.log(`\nProfile: ${path.join(profileDir, file)}`)
  summariseCpu(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile)
}
