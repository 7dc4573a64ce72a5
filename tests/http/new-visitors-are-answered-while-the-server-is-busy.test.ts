import http from 'node:http'
import net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../setup/server'

// Without the page cache every page is made, so the open connections keep the server busy. Behind
// a trusted proxy (here, the test), X-Forwarded-For names the client.
const server = await startTestServer({ PAGE_CACHE_SECONDS: '0', TRUST_PROXY: 'true' })
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

/** A connection of its own, accepted: a first request on it has been answered. */
async function openConnection(): Promise<net.Socket> {
  const { hostname, port } = new URL(server.url)
  const socket = net.connect(Number(port), hostname)
  await new Promise((resolve) => socket.once('connect', resolve))
  // HEAD: the answer ends with its headers.
  socket.write('HEAD /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n')
  let received = ''
  await new Promise<void>((resolve) =>
    socket.on('data', function read(chunk) {
      received += chunk
      if (received.includes('\r\n\r\n')) resolve(void socket.off('data', read))
    }),
  )
  return socket
}

/** The status of the answer to `path`, asked for by `client` on `socket`, which then closes. */
function statusOf(socket: net.Socket, path: string, client: string): Promise<number> {
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: ${client}\r\nConnection: close\r\n\r\n`)
  let received = ''
  socket.on('data', (chunk) => (received += chunk))
  return new Promise((resolve) => socket.once('end', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(received)?.[1]))))
}

describe('one client address with many requests at once', () => {
  it('gets at most 64 of them waiting, over all its connections, and other addresses are served', async () => {
    const sockets = await Promise.all(Array.from({ length: 80 }, openConnection))
    try {
      // All written in one tick: they reach the server together, long before it has made 64 pages.
      // Dressed as uploaded files, which do not wait: they are the about page, and wait their turn.
      const flood = sockets.slice(0, 70).map((socket) => statusOf(socket, '/media/%2e%2e/about', '203.0.113.9'))
      const others = sockets.slice(70).map((socket, n) => statusOf(socket, '/about', `198.51.100.${n + 1}`))
      const floodStatuses = await Promise.all(flood)
      expect(floodStatuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(64)
      expect(floodStatuses.filter((status) => status === 429).length).toBeGreaterThan(0)
      expect(floodStatuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
      expect(await Promise.all(others)).toEqual(others.map(() => 200))
    } finally {
      sockets.forEach((socket) => socket.destroy())
    }
  })
})
