import http from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../setup/server'

// Without the page cache every page is made, so the open connections keep the server busy.
const server = await startTestServer({ PAGE_CACHE_SECONDS: '0' })
afterAll(() => server.stop())

const BUSY_CONNECTIONS = 10
const NEW_VISITORS = 30

/** One GET on `agent`'s connection; resolves when the whole answer has arrived. */
function get(path: string, agent: http.Agent | false): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}${path}`, { agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      .on('error', reject)
  })
}

describe('a visitor arriving while open connections keep the server busy', () => {
  it('is answered after the requests already waiting, not after many rounds of them', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: BUSY_CONNECTIONS })
    let busyAnswers = 0
    let busy = true
    const loops = Array.from({ length: BUSY_CONNECTIONS }, async () => {
      while (busy) {
        expect(await get('/calendar', agent)).toBe(200)
        busyAnswers++
      }
    })
    while (busyAnswers < 3 * BUSY_CONNECTIONS) await new Promise((resolve) => setTimeout(resolve, 10))

    // Each on a connection of its own, opened all at once.
    const startedAt = busyAnswers
    const waited = await Promise.all(
      Array.from({ length: NEW_VISITORS }, async () => {
        expect(await get('/about', false)).toBe(200)
        return busyAnswers - startedAt
      }),
    )
    busy = false
    await Promise.all(loops)
    agent.destroy()

    // In turn, the last new visitor waits for about the requests queued before it: some tens of
    // answers on the busy connections. Node accepts one connection per turn of its event loop, and
    // a turn that made every waiting page made the busy connections' pages again for each new
    // visitor accepted: several hundred answers before the last one.
    expect(Math.max(...waited)).toBeLessThan(4 * (BUSY_CONNECTIONS + NEW_VISITORS))
  })
})
