import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { db } from './db.server'
import { newLeaseToken } from './lease-holder.server'
import { createLeasedQueue, type LeasedQueueOptions, type LeasedQueuePolicy } from './leased-queue.server'
import { insertVideo } from './media/videos.server'

// The videos table serves as a queue table here; the work is the test's own, not a conversion.
const POLICY: LeasedQueuePolicy = { maxAttempts: 3, firstRetryMs: 60_000, leaseMs: 20 * 60_000, batchSize: 10, timerMs: 60_000 }

function queueOf(options: Partial<LeasedQueueOptions<'videos'>> = {}) {
  return createLeasedQueue<'videos'>({
    name: 'test job',
    table: 'videos',
    policy: POLICY,
    isWaiting: (eb) => eb('status', '=', 'processing'),
    work: async (_job, lease) => lease.finish(db, { status: 'ready' }),
    failed: (error, _job, giveUp) => ({ status: giveUp ? 'failed' : 'processing', statusText: String(error) }),
    takeOverLeasesOfGoneProcesses: true,
    ...options,
  })
}

async function addJobs(count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    ids.push((await insertVideo(db, { id: crypto.randomUUID(), filename: `job-${i}.mp4`, format: 'mp4' })).id)
  }
  return ids
}

const jobRow = (id: string) =>
  db
    .selectFrom('videos')
    .select(['status', 'statusText', 'attempts', 'nextAttemptAt', 'leaseToken', 'leaseExpiresAt'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000)

describe('a leased queue', () => {
  it('gives each job to one claimer, however many claim at once', async () => {
    const ids = await addJobs(6)
    const done: string[] = []
    const queue = queueOf({
      work: async (job, lease) => {
        await new Promise((resolve) => setTimeout(resolve, 10))
        done.push(job.id)
        await lease.finish(db, { status: 'ready' })
      },
    })
    const summaries = await Promise.all([1, 2, 3].map(() => queue.runDue()))
    expect(summaries.reduce((sum, s) => sum + s.finished, 0)).toBe(6)
    expect(done.sort()).toEqual([...ids].sort())
    for (const id of ids)
      expect(await jobRow(id)).toMatchObject({ status: 'ready', attempts: 1, leaseToken: null, nextAttemptAt: null })
  })

  it('retries a failed job after a doubling delay, and gives up after the last attempt', async () => {
    const [id] = await addJobs(1)
    const givenUp: string[] = []
    const queue = queueOf({
      work: async () => {
        throw new Error('storage is down')
      },
      onGiveUp: async (job) => void givenUp.push(job.id),
    })

    expect(await queue.runDue()).toMatchObject({ finished: 0, retried: 1, gaveUp: 0 })
    const first = await jobRow(id)
    expect(first).toMatchObject({ status: 'processing', statusText: 'Error: storage is down', attempts: 1, leaseToken: null })
    const firstDelay = new Date(first.nextAttemptAt!).getTime() - Date.now()
    expect(firstDelay).toBeGreaterThan(30_000)
    expect(firstDelay).toBeLessThanOrEqual(60_000)
    // Not due before its time.
    expect(await queue.runDue()).toMatchObject({ finished: 0, retried: 0, gaveUp: 0 })

    expect(await queue.runDue({ now: minutesFromNow(2) })).toMatchObject({ retried: 1 })
    const second = await jobRow(id)
    const secondDelay = new Date(second.nextAttemptAt!).getTime() - minutesFromNow(2).getTime()
    expect(secondDelay).toBeGreaterThan(90_000)
    expect(secondDelay).toBeLessThanOrEqual(120_000)
    expect(givenUp).toEqual([])

    expect(await queue.runDue({ now: minutesFromNow(5) })).toMatchObject({ retried: 0, gaveUp: 1 })
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null, leaseToken: null })
    expect(givenUp).toEqual([id])
    expect(await queue.runDue({ now: minutesFromNow(60 * 24) })).toMatchObject({ retried: 0, gaveUp: 0 })
  })

  it('gives up at once on a failure no attempt can mend', async () => {
    const [id] = await addJobs(1)
    const queue = queueOf({
      work: async () => {
        throw new TypeError('unreadable')
      },
      isHopeless: (error) => error instanceof TypeError,
    })
    expect(await queue.runDue()).toMatchObject({ retried: 0, gaveUp: 1 })
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null })
  })

  it('does not let a holder whose lease ran out and was taken over record its outcome', async () => {
    const [id] = await addJobs(1)
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const slow = queueOf({
      work: async (_job, lease) => {
        await released
        await lease.finish(db, { status: 'ready', statusText: 'by the slow holder' })
      },
    })
    const fast = queueOf({
      work: (_job, lease) => lease.finish(db, { status: 'ready', statusText: 'by the one that took over' }),
    })

    const slowPass = slow.runDue()
    await expect.poll(async () => (await jobRow(id)).leaseToken).not.toBeNull()
    expect(await fast.runDue({ now: minutesFromNow(10) })).toMatchObject({ finished: 0 })
    expect(await fast.runDue({ now: minutesFromNow(21) })).toMatchObject({ finished: 1 })
    release()
    expect(await slowPass).toMatchObject({ finished: 0, retried: 0, gaveUp: 0 })
    expect(await jobRow(id)).toMatchObject({ status: 'ready', statusText: 'by the one that took over', attempts: 2 })
  })

  it('gives a job cut short by a shutdown back: claim freed, attempt not counted', async () => {
    const [id] = await addJobs(1)
    const shutdown = new AbortController()
    let started = false
    const queue = queueOf({
      work: (_job, _lease, signal) =>
        new Promise((_resolve, reject) => {
          started = true
          signal!.addEventListener('abort', () => reject(new Error('killed')))
        }),
    })
    const pass = queue.runDue({ signal: shutdown.signal })
    await expect.poll(() => started).toBe(true)
    expect((await jobRow(id)).attempts).toBe(1)
    shutdown.abort()
    expect(await pass).toMatchObject({ finished: 0, retried: 0, gaveUp: 0 })
    expect(await jobRow(id)).toMatchObject({
      status: 'processing',
      statusText: null,
      attempts: 0,
      leaseToken: null,
      leaseExpiresAt: null,
    })
    expect(await queueOf().runDue()).toMatchObject({ finished: 1 })
  })

  it('takes over at once the lease of a killed process of this machine only where the queue says so', async () => {
    const killed = spawn('sleep', ['60'], { stdio: 'ignore' })
    const leaseOfKilled = newLeaseToken(killed.pid!)
    killed.kill('SIGKILL')
    await once(killed, 'exit')
    const [id] = await addJobs(1)
    const leaseExpiresAt = minutesFromNow(20).toISOString()
    await db.updateTable('videos').set({ leaseToken: leaseOfKilled, leaseExpiresAt, attempts: 1 }).where('id', '=', id).execute()

    expect(await queueOf({ takeOverLeasesOfGoneProcesses: false }).runDue()).toMatchObject({ finished: 0 })
    expect(await queueOf({ takeOverLeasesOfGoneProcesses: true }).runDue()).toMatchObject({ finished: 1 })
    expect(await jobRow(id)).toMatchObject({ status: 'ready', attempts: 2 })
  })
})
