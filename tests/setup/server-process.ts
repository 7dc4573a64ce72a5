import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import os from 'node:os'

/*
 * A test server's process: started in a process group of its own, so that whatever it starts
 * (cluster workers, ffmpeg, Vite's helpers) goes with it; killed with that group when it fails to
 * start; and killed at the latest when the test file ends (stopServersLeftRunning, run after each
 * HTTP file by tests/setup/servers-stopped.ts) or when the test worker exits.
 */

export interface ServerProcess {
  child: ChildProcess
  url: string
  output: () => string
  /** The exit code, once the process has exited. */
  exited: Promise<number | null>
}

export interface ServerProcessOptions {
  /** How long an idle machine may take to start the server; a loaded one gets more (startTimeout). */
  idleStartTimeout: number
}

/** The addresses a started server prints: server/index.ts, server/cluster.ts, server/dev.ts. */
const LISTENING = /Listening on (http:\/\/\S+)/

/**
 * How long a start may take now: the idle machine's time, times the number of processes that wait
 * for each core (the load average over the last minute), at most four times. A hung start still
 * fails, in at most four times the idle time, and its message says the load.
 */
export function startTimeout(idle: number, load = os.loadavg()[0], cores = os.availableParallelism()): number {
  return idle * Math.min(4, Math.max(1, load / cores))
}

const running = new Map<ChildProcess, () => Promise<unknown>>()

/** Kills the process and its group (what it started), ignoring those already gone. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}

// A test worker that ends (finished, failed, or interrupted) leaves no server behind.
process.on('exit', () => {
  for (const child of running.keys()) killGroup(child, 'SIGKILL')
})

/**
 * Starts `command` and resolves with the address it listens on. If it exits first, or does not
 * listen in time, its whole group is killed and the start fails with the process's output.
 */
export async function startServerProcess(
  command: string,
  args: string[],
  spawnOptions: SpawnOptions,
  { idleStartTimeout }: ServerProcessOptions,
): Promise<ServerProcess> {
  const child = spawn(command, args, { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  running.set(child, async () => {
    killGroup(child, 'SIGKILL')
    await exited
  })
  exited.then(() => running.delete(child))
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const startedAt = Date.now()
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const check = setInterval(() => {
        const allowed = startTimeout(idleStartTimeout)
        if (Date.now() - startedAt <= allowed) return
        clearInterval(check)
        const load = os.loadavg()[0].toFixed(1)
        reject(new Error(`Server did not start within ${Math.round(allowed / 1000)} s (load average ${load}):\n${output}`))
      }, 250)
      child.stdout!.on('data', () => {
        const match = output.match(LISTENING)
        if (match) {
          clearInterval(check)
          resolve(match[1])
        }
      })
      child.on('error', (error) => {
        clearInterval(check)
        reject(error)
      })
      child.on('exit', (code) => {
        clearInterval(check)
        reject(new Error(`Server exited with ${code}:\n${output}`))
      })
    })
    return { child, url, output: () => output, exited }
  } catch (error) {
    killGroup(child, 'SIGKILL')
    await exited
    throw error
  }
}

/**
 * Sends `signal` to the server and waits for it to exit; then kills what it left running in its
 * group. A server still running a while after SIGTERM (it forces its own exit after 15 s) is killed.
 */
export async function stopServerProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal)
  const forced = setTimeout(() => killGroup(server.child, 'SIGKILL'), startTimeout(30_000))
  const code = await server.exited
  clearTimeout(forced)
  killGroup(server.child, 'SIGKILL')
  return code
}

const stoppers = new Set<() => Promise<unknown>>()

/** Makes stopServersLeftRunning() call `stop` unless it is removed (by the server's own stop) first. */
export function stopAtTheEnd(stop: () => Promise<unknown>): () => void {
  stoppers.add(stop)
  return () => stoppers.delete(stop)
}

/**
 * Stops the servers a test file left running, the last started first (a server on another's
 * database before its owner), and kills any process they leave behind.
 */
export async function stopServersLeftRunning(): Promise<void> {
  for (const stop of [...stoppers].reverse()) {
    stoppers.delete(stop)
    await stop()
  }
  for (const kill of running.values()) await kill()
}
