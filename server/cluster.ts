// `npm run start:cluster` / `node build/server/start-cluster.js`: several copies of the server
// (start.js beside this file) on one machine, sharing its port through node:cluster, for a
// machine with several cores. WEB_CONCURRENCY sets how many (default: one per core the process
// may use).
//
// The first worker prepares the site (migrations, demo content, first administrator) before the
// others start; each of those does the same start-up work, which finds nothing left to do. A
// worker that dies is replaced; SIGTERM or SIGINT stops the workers gracefully, then the primary.
import cluster, { type Worker } from 'node:cluster'
import os from 'node:os'
import path from 'node:path'

const RESTART_DELAY_MS = 1_000
/** After a worker that died before it listened (failing at start-up): not a tight loop of failing starts. */
const FAILED_START_DELAY_MS = 10_000
const STOP_TIMEOUT_MS = 20_000

function workerCount(): number {
  const raw = process.env.WEB_CONCURRENCY
  if (raw === undefined || raw === '') return os.availableParallelism()
  const count = Number(raw)
  if (!Number.isInteger(count) || count < 1 || count > 64) {
    console.error(`WEB_CONCURRENCY must be a whole number from 1 to 64, not "${raw}".`)
    process.exit(1)
  }
  return count
}

const wanted = workerCount()
let stopping = false
const listening = new WeakSet<Worker>()

cluster.setupPrimary({ exec: path.join(import.meta.dirname, 'start.js'), execArgv: process.execArgv })

function fork(): Promise<Worker> {
  const worker = cluster.fork()
  console.log(`worker ${worker.process.pid} starting`)
  return new Promise((resolve, reject) => {
    worker.once('listening', () => {
      listening.add(worker)
      resolve(worker)
    })
    worker.once('exit', (code) => reject(new Error(`worker ${worker.process.pid} exited with ${code} before it listened`)))
  })
}

cluster.on('exit', (worker, code, signal) => {
  if (stopping) {
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0)
    return
  }
  console.error(`worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}): starting another`)
  const delay = listening.has(worker) ? RESTART_DELAY_MS : FAILED_START_DELAY_MS
  setTimeout(() => {
    if (!stopping) fork().catch((error: Error) => console.error(error.message))
  }, delay).unref()
})

function stop(signal: NodeJS.Signals) {
  if (stopping) return
  stopping = true
  console.log(`${signal} received: stopping ${Object.keys(cluster.workers ?? {}).length} workers`)
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined)
  if (workers.length === 0) process.exit(process.exitCode ?? 0)
  // Each worker finishes its open requests and exits (server/index.ts); the last one's exit ends the primary.
  for (const worker of workers) worker.process.kill('SIGTERM')
  setTimeout(() => {
    console.error('workers did not stop in time: killing them')
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
    process.exit(1)
  }, STOP_TIMEOUT_MS).unref()
}
process.on('SIGTERM', () => stop('SIGTERM'))
process.on('SIGINT', () => stop('SIGINT'))

try {
  // One worker prepares the site first; the rest start together once it listens.
  await fork()
  await Promise.all(Array.from({ length: wanted - 1 }, fork))
  console.log(`${wanted} workers listening`)
} catch (error) {
  console.error(`The cluster could not start: ${(error as Error).message}`)
  stop('SIGTERM')
  process.exitCode = 1
}
