import fs from 'node:fs'
import { describe, expect, test } from 'vitest'
import { startServerProcess, startTimeout, stopAtTheEnd, stopServerProcess, stopServersLeftRunning } from './server-process'

/** Whether the process runs (a killed one nobody has reaped yet is a zombie, and counts as gone). */
function isRunning(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0]
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/** Whether the process is gone within a second (a signal takes effect soon after it is sent, not at once). */
async function isGone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 1000
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return true
}

/** A "server" that starts a child of its own, prints both ids, then listens only if told to. */
function fakeServer(listens: boolean, exitsAfter?: number): string[] {
  const script = `
    const { spawn } = require('node:child_process')
    const helper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    console.log('ids ' + process.pid + ' ' + helper.pid)
    ${listens ? "console.log('Listening on http://127.0.0.1:1')" : ''}
    ${exitsAfter === undefined ? 'setInterval(() => {}, 1000)' : `setTimeout(() => process.exit(3), ${exitsAfter})`}
  `
  return ['-e', script]
}

function idsIn(output: string): number[] {
  const match = output.match(/ids (\d+) (\d+)/)
  if (!match) throw new Error(`No ids in ${output}`)
  return [Number(match[1]), Number(match[2])]
}

async function failedStart(args: string[]): Promise<Error> {
  try {
    await startServerProcess(process.execPath, args, {}, { idleStartTimeout: 1000 })
  } catch (error) {
    return error as Error
  }
  throw new Error('The server started')
}

describe('a test server', () => {
  test('that does not listen in time is killed with what it started, and the start fails saying so', async () => {
    const error = await failedStart(fakeServer(false))
    expect(error.message).toMatch(/^Server did not start within \d+ s \(load average [\d.]+\)/)
    const [server, helper] = idsIn(error.message)
    expect(await isGone(server)).toBe(true)
    expect(await isGone(helper)).toBe(true)
  })

  test('that exits before it listens fails the start with its output, and leaves nothing running', async () => {
    const error = await failedStart(fakeServer(false, 200))
    expect(error.message).toMatch(/^Server exited with 3:\nids /)
    const [, helper] = idsIn(error.message)
    expect(await isGone(helper)).toBe(true)
  })

  test('left running by a failed test is stopped at the end of its file, with what it started', async () => {
    const started = await startServerProcess(process.execPath, fakeServer(true), {}, { idleStartTimeout: 5000 })
    expect(started.url).toBe('http://127.0.0.1:1')
    const [server, helper] = idsIn(started.output())
    let stopped = false
    stopAtTheEnd(async () => {
      await stopServerProcess(started)
      stopped = true
    })
    expect(isRunning(server) && isRunning(helper)).toBe(true)
    await stopServersLeftRunning()
    expect(stopped).toBe(true)
    expect(await isGone(server)).toBe(true)
    expect(await isGone(helper)).toBe(true)
  })

  test('that its test stops leaves nothing for the end of the file', async () => {
    const started = await startServerProcess(process.execPath, fakeServer(true), {}, { idleStartTimeout: 5000 })
    let stops = 0
    const forget = stopAtTheEnd(async () => {
      stops++
      await stopServerProcess(started)
    })
    forget()
    expect(await stopServerProcess(started)).toBeNull() // killed by SIGTERM, which it does not handle
    await stopServersLeftRunning()
    expect(stops).toBe(0)
    expect(await isGone(idsIn(started.output())[1])).toBe(true)
  })
})

describe('the time a start may take', () => {
  test('is the idle time on a machine with a core for each waiting process', () => {
    expect(startTimeout(30_000, 0.4, 2)).toBe(30_000)
    expect(startTimeout(30_000, 2, 2)).toBe(30_000)
  })

  test('grows with the load, up to four times, so a hung start still fails', () => {
    expect(startTimeout(30_000, 5, 2)).toBe(75_000)
    expect(startTimeout(30_000, 40, 2)).toBe(120_000)
  })
})
