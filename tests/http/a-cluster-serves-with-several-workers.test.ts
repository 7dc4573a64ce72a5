import http from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../setup/server'

// server/cluster.ts with two workers on one port. Which worker answers is not shown to visitors;
// each worker keeps its own page cache, so two answers that both had to render a page come from
// two different processes.
const cluster = await startTestServer({ WEB_CONCURRENCY: '2' }, { script: 'start-cluster.js' })
afterAll(() => cluster.stop())

/** One GET on a new connection (the primary hands each connection to the next worker in turn). */
function getOnNewConnection(path: string): Promise<{ status: number; cache: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(cluster.url + path, { agent: false }, (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode!, cache: res.headers['x-page-cache'] as string | undefined }))
      })
      .on('error', reject)
  })
}

function workerPids(): number[] {
  return [...cluster.output().matchAll(/worker (\d+) starting/g)].map((m) => Number(m[1]))
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitFor(what: string, check: () => boolean) {
  const deadline = Date.now() + 30_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${cluster.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Two new connections in a row that both render the page: two workers with caches of their own. */
async function expectTwoWorkersAnswer(path: string) {
  const answers = [await getOnNewConnection(path), await getOnNewConnection(path)]
  expect(answers).toEqual([
    { status: 200, cache: 'miss' },
    { status: 200, cache: 'miss' },
  ])
  // After that each worker has the page.
  for (let i = 0; i < 4; i++) expect(await getOnNewConnection(path)).toEqual({ status: 200, cache: 'hit' })
}

describe('npm run start:cluster', () => {
  it('starts WEB_CONCURRENCY workers, and each answers requests', async () => {
    await waitFor('two workers', () => cluster.output().includes('2 workers listening'))
    expect(workerPids()).toHaveLength(2)
    await expectTwoWorkersAnswer('/about')
  })

  it('replaces a worker that dies, and the site keeps answering meanwhile', async () => {
    const [victim, survivor] = workerPids()
    process.kill(victim, 'SIGKILL')
    await waitFor('the victim to go', () => !isRunning(victim))
    expect((await getOnNewConnection('/healthz')).status).toBe(200)
    await waitFor('a new worker', () => workerPids().length === 3)
    expect(cluster.output()).toContain(`worker ${victim} died (SIGKILL): starting another`)
    const replacement = workerPids()[2]
    await waitFor('the new worker to listen', () =>
      cluster.output().split(`worker ${replacement} starting`)[1].includes('Listening on'),
    )
    expect(isRunning(survivor)).toBe(true)
    await expectTwoWorkersAnswer('/services')
  })

  it('stops every worker gracefully on SIGTERM, then itself', async () => {
    const pids = workerPids().filter(isRunning)
    expect(pids).toHaveLength(2)
    expect(await cluster.stop('SIGTERM')).toBe(0)
    for (const pid of pids) expect(isRunning(pid), `worker ${pid}`).toBe(false)
    expect(cluster.output()).toContain('SIGTERM received: stopping 2 workers')
  })
})
