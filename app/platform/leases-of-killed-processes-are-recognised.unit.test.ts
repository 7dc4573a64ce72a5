import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { isLeaseOfGoneProcess, newLeaseToken } from './lease-holder.server'

describe('lease tokens', () => {
  it('name their process, and a new one each time', () => {
    const token = newLeaseToken()
    expect(token).toMatch(new RegExp(`^[0-9a-f-]+-\\d+/${process.pid}/\\d+/[0-9a-f-]{36}$`))
    expect(newLeaseToken()).not.toBe(token)
  })

  it("tell a running process's lease from one of a process that was killed", async () => {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' })
    const token = newLeaseToken(child.pid!)
    expect(isLeaseOfGoneProcess(token)).toBe(false)
    expect(isLeaseOfGoneProcess(newLeaseToken())).toBe(false)

    child.kill('SIGKILL')
    await once(child, 'exit')
    expect(isLeaseOfGoneProcess(token)).toBe(true)
  })

  it('take a process that has exited but is not yet reaped for gone', async () => {
    // The shell runs `sleep` and then waits without reaping it: a zombie under its PID.
    const shell = spawn('/bin/sh', ['-c', 'sleep 2 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const [line] = (await once(shell.stdout, 'data')) as [Buffer]
      const pid = Number(line.toString().trim())
      const token = newLeaseToken(pid)
      expect(isLeaseOfGoneProcess(token)).toBe(false)
      await expect.poll(() => isLeaseOfGoneProcess(token), { timeout: 10_000 }).toBe(true)
    } finally {
      shell.kill('SIGKILL')
    }
  })

  it('know nothing of a process on another machine, nor of a token without a process', () => {
    const [, pid, start, claim] = newLeaseToken().split('/')
    expect(isLeaseOfGoneProcess(`0b7e3a4c-0000-4000-8000-000000000001-4026531836/${pid}/${start}/${claim}`)).toBe(false)
    const machine = newLeaseToken().split('/')[0]
    for (const token of [
      'crashed-worker',
      `unknown/${claim}`,
      `${machine}/0/1/x`,
      `${machine}/-1/1/x`,
      `${machine}/1e3/1/x`,
      `${machine}//1/x`,
    ]) {
      expect(isLeaseOfGoneProcess(token), token).toBe(false)
    }
  })
})
