import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CHROMIUM } from '../tests/setup/chromium'

export const root = path.resolve(import.meta.dirname, '..')
/** The benchmarks build into their own folder so they never disturb `build/`. */
export const buildDir = process.env.BUILD_DIR ?? 'build-bench'

export function requireChromium(): void {
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`The benchmarks need Debian's Chromium at ${CHROMIUM}. Install it: apt-get install -y chromium`)
    process.exit(1)
  }
}

export function buildApp(): void {
  console.log(`Building into ${buildDir} …`)
  const result = spawnSync(path.join(root, 'node_modules/.bin/react-router'), ['build'], {
    cwd: root,
    env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: 'production' },
    encoding: 'utf8',
  })
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr)
    throw new Error(`The build failed (exit code ${result.status}).`)
  }
}

export interface BenchServer {
  url: string
  pid: number
  dataDir: string
  /** Milliseconds from starting the process to its first answer. */
  startMs: number
  /** Stops the server with SIGTERM and removes its data folder (unless `keepData`). */
  stop(options?: { keepData?: boolean }): Promise<void>
}

/**
 * Starts the real server on a free port, with a fresh data folder (so it serves the demo content)
 * or the given one (an existing site). `env` adds settings, e.g. PAGE_CACHE_SECONDS; the admin
 * admin@example.org has `adminPassword` (the screenshots sign in); `nodeArgs` go to Node (--cpu-prof).
 */
export async function startBenchServer(
  options: {
    dataDir?: string
    env?: Record<string, string>
    buildDir?: string
    adminPassword?: string
    nodeArgs?: string[]
  } = {},
): Promise<BenchServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-'))
  const startedAt = performance.now()
  const program = path.join(options.buildDir ?? buildDir, 'server/start.js')
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), program], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'admin@example.org',
      ADMIN_PASSWORD: options.adminPassword ?? 'bench-only-password',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  let stopped = false
  async function stop({ keepData = false } = {}) {
    if (stopped) return
    stopped = true
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true })
  }
  // Ctrl-C during a run still stops the server and removes the data folder.
  process.once('SIGINT', () => void stop().then(() => process.exit(130)))

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The server did not start within 60 s:\n${output}`)), 60_000)
      child.stdout.on('data', () => {
        const match = output.match(/Listening on (http:\/\/\S+)/)
        if (match) {
          clearTimeout(timer)
          resolve(match[1])
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`The server exited with code ${code}:\n${output}`))
      })
    })
    // Listening is not answering yet: the first page needs the app's modules and the database.
    for (;;) {
      const res = await fetch(url).catch(() => null)
      await res?.body?.cancel()
      if (res?.status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    return { url, pid: child.pid!, dataDir, startMs: performance.now() - startedAt, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A process's resident memory now (Linux /proc), in MB. */
export function residentMemory(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0) / 1024
}

/** Samples a process's resident memory until stopped; returns the largest, in MB. */
export function sampleMemory(pid: number) {
  let largest = 0
  const read = () => {
    largest = Math.max(largest, residentMemory(pid))
  }
  const timer = setInterval(read, 250)
  return () => {
    clearInterval(timer)
    return largest
  }
}
