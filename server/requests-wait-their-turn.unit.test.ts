import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { inTurn } from './requests-in-turn'

const closers: (() => void)[] = []
afterEach(() => closers.splice(0).forEach((close) => close()))

/** Turns of the event loop, counted by an immediate in each. */
function turnCounter() {
  const counter = { turn: 0 }
  let counting = true
  const count = () => {
    counter.turn++
    if (counting) setImmediate(count)
  }
  count()
  closers.push(() => (counting = false))
  return counter
}

interface Answer {
  status: number
  retryAfter?: string
  body: string
}

/**
 * A real HTTP server whose requests go through `inTurn`, with `connections` keep-alive
 * connections to it already open and accepted. Requests sent in one tick of the test are written
 * before the server next polls (the test shares its event loop), so they reach it together.
 */
async function serve(
  listener: http.RequestListener,
  {
    maxWaiting = 100,
    maxWaitingPerAddress = 100,
    connections = 8,
    startsAtOnce = (_incoming: http.IncomingMessage): boolean => false,
    startsLater = (_incoming: http.IncomingMessage): boolean => false,
    maxWaitingLater = 0,
  } = {},
) {
  const server = http.createServer(
    inTurn(listener, {
      maxWaiting,
      maxWaitingPerConnection: 4,
      maxWaitingPerAddress,
      // Every client here is on 127.0.0.1: the one a request stands for is in a header.
      addressOf: (incoming) => String(incoming.headers['x-client'] ?? ''),
      startsAtOnce,
      startsLater,
      maxWaitingLater,
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  closers.push(() => {
    agent.destroy()
    server.close()
    server.closeAllConnections()
  })
  const port = (server.address() as AddressInfo).port
  const get = (path: string, client = '') =>
    new Promise<Answer>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}${path}`, { agent, headers: { 'x-client': client } }, (res) => {
          let body = ''
          res.on('data', (chunk) => (body += chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }))
        })
        .on('error', reject)
    })
  await Promise.all(Array.from({ length: connections }, () => get('/open')))
  return { get, port }
}

/** `serve` with a listener that answers "ok" and records the path of every request it starts. */
async function serveRecording(options: Parameters<typeof serve>[1]) {
  const started: string[] = []
  const served = await serve((req, res) => {
    started.push(req.url!)
    res.end('ok')
  }, options)
  return { ...served, started }
}

/** A raw connection of its own to the server, open. */
async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  return socket
}

describe('requests in turn', () => {
  it('start one per turn of the event loop, in the order they arrived, even when they arrive together', async () => {
    const counter = turnCounter()
    const started: { turn: number; path: string }[] = []
    const { get } = await serve((req, res) => {
      if (req.url !== '/open') started.push({ turn: counter.turn, path: req.url! })
      res.end('ok')
    })
    const paths = Array.from({ length: 8 }, (_, n) => `/${n}`)
    const answers = await Promise.all(paths.map((path) => get(path)))
    expect(answers.map((answer) => answer.status)).toEqual(paths.map(() => 200))
    expect(started.map((start) => start.path)).toEqual(paths)
    expect(new Set(started.map((start) => start.turn)).size).toBe(paths.length)
  })

  it('refuse a request beyond the queue at once, with 503, a plain message and Retry-After', async () => {
    const { get } = await serve((_req, res) => res.end('ok'), { maxWaiting: 2, connections: 4 })
    const answers = await Promise.all(['/a', '/b', '/c', '/d'].map((path) => get(path)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 503, 503])
    expect(answers[3]).toEqual({ status: 503, retryAfter: '5', body: 'The site is busy. Please try again in a moment.' })
  })

  it('refuse the requests one connection sends beyond four waiting with 429, and serve the others', async () => {
    const { get, port, started } = await serveRecording({ connections: 1 })
    const pipelining = await connect(port)
    let received = ''
    pipelining.on('data', (chunk) => (received += chunk))
    // Six requests in one packet, as no browser sends them, and one from another client.
    pipelining.write(Array.from({ length: 6 }, (_, n) => `GET /p${n} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join(''))
    const other = get('/other')
    expect((await other).status).toBe(200)
    while ((received.match(/HTTP\/1\.1 \d+/g) ?? []).length < 6) await new Promise((resolve) => setTimeout(resolve, 10))
    pipelining.destroy()
    expect(received.match(/HTTP\/1\.1 \d+/g)).toEqual([...Array(4).fill('HTTP/1.1 200'), ...Array(2).fill('HTTP/1.1 429')])
    expect(started.filter((path) => path.startsWith('/p'))).toEqual(['/p0', '/p1', '/p2', '/p3'])
  })

  it('refuse the requests of one client address beyond its share with 429, over all its connections, and serve the others', async () => {
    const { get, started } = await serveRecording({ maxWaitingPerAddress: 3, connections: 6 })
    started.length = 0
    const answers = await Promise.all([
      ...['/a1', '/a2', '/a3', '/a4'].map((path) => get(path, '203.0.113.9')),
      ...['/b1', '/b2'].map((path) => get(path, '198.51.100.7')),
    ])
    const [fromA, fromB] = [answers.slice(0, 4), answers.slice(4)]
    expect(fromA.filter((answer) => answer.status === 200)).toHaveLength(3)
    expect(fromA.filter((answer) => answer.status !== 200)).toEqual([
      { status: 429, retryAfter: '5', body: 'The site is busy. Please try again in a moment.' },
    ])
    expect(fromB.map((answer) => answer.status)).toEqual([200, 200])
    expect(started.filter((path) => path.startsWith('/a'))).toHaveLength(3)
    // Its share is back once its requests have been made.
    expect((await get('/a5', '203.0.113.9')).status).toBe(200)
  })

  it('take a request from a new address into a full queue, refusing the newest of the address with the most', async () => {
    const { get, started } = await serveRecording({ maxWaiting: 4, maxWaitingPerAddress: 3, connections: 6 })
    started.length = 0
    const answers = await Promise.all([
      ...['/a1', '/a2', '/a3'].map((path) => get(path, '203.0.113.9')),
      get('/b1', '198.51.100.7'),
      get('/c1', '192.0.2.44'),
      // Its address has the most waiting already: no room is made for it.
      get('/a4', '203.0.113.9'),
    ])
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 200, 200, 503])
    expect(started).toEqual(['/a1', '/a2', '/b1', '/c1'])
  })

  it('make room in a full queue with a request whose client left, and leave an address a floor of places', async () => {
    // Called directly, one after the other: none starts before the next turn of the event loop.
    const started: string[] = []
    const listener = inTurn(
      (req, res) => {
        started.push(req.url!)
        res.end()
      },
      {
        maxWaiting: 4,
        maxWaitingPerConnection: 4,
        maxWaitingPerAddress: 8, // a floor of 2
        addressOf: (incoming) => String(incoming.headers['x-client']),
        startsAtOnce: () => false,
        startsLater: () => false,
        maxWaitingLater: 0,
      },
    )
    const ask = (url: string, client: string) => {
      const request = { url, headers: { 'x-client': client }, socket: {}, destroyed: false }
      const answer = { status: 0, writeHead: (status: number) => (answer.status = status), end: () => {} }
      listener(request as unknown as http.IncomingMessage, answer as unknown as http.ServerResponse)
      return { request, answer }
    }
    const [a1, a2, a3, b1] = [ask('/a1', 'A'), ask('/a2', 'A'), ask('/a3', 'A'), ask('/b1', 'B')]
    a2.request.destroyed = true
    // The queue is full: the one whose client left makes room.
    const a4 = ask('/a4', 'A')
    expect(a4.answer.status).toBe(0)
    // Full again, A has 3 of the 4: its newest is refused for C.
    const c1 = ask('/c1', 'C')
    expect([a4.answer.status, c1.answer.status]).toEqual([429, 0])
    // A has 2, its floor: none of its requests is refused for D.
    const d1 = ask('/d1', 'D')
    expect([a1, a3, b1, d1].map(({ answer }) => answer.status)).toEqual([0, 0, 0, 503])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(started).toEqual(['/a1', '/a3', '/b1', '/c1'])
  })

  it('start the requests that must answer under load at once, even when the queue is full', async () => {
    const { get } = await serve((_req, res) => res.end('ok'), {
      maxWaiting: 1,
      connections: 3,
      startsAtOnce: (incoming) => incoming.url === '/healthz',
    })
    const answers = await Promise.all(['/a', '/b', '/healthz'].map((path) => get(path)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 503, 200])
  })

  it('make the requests that can wait only when no other waits, one at a time, and refuse those beyond their places', async () => {
    const events: string[] = []
    const { get } = await serve(
      (req, res) => {
        events.push(`start ${req.url}`)
        if (!req.url!.startsWith('/search')) return void res.end('ok')
        // A search takes a while, asynchronously: the next waits until this one has answered.
        setTimeout(() => {
          events.push(`end ${req.url}`)
          res.end('ok')
        }, 30)
      },
      { connections: 6, maxWaitingLater: 3, startsLater: (incoming) => incoming.url!.startsWith('/search') },
    )
    events.length = 0
    const paths = ['/search1', '/search2', '/search3', '/search4', '/page1', '/page2']
    const answers = await Promise.all(paths.map((path) => get(path)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 503, 200, 200])
    expect(events).toEqual([
      'start /page1',
      'start /page2',
      'start /search1',
      'end /search1',
      'start /search2',
      'end /search2',
      'start /search3',
      'end /search3',
    ])
  })

  it('drop a request whose client closed its connection while it waited, without starting it, and give its place back', async () => {
    // Every request here is from one address, with room for four.
    const { get, port, started } = await serveRecording({ connections: 4, maxWaitingPerAddress: 4 })
    // A connection of its own, open and accepted before the others' requests.
    const leaving = await connect(port)
    leaving.write('GET /open-too HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await new Promise((resolve) => leaving.once('data', resolve))
    started.length = 0

    const answers = Promise.all(['/a', '/b', '/c'].map((path) => get(path)))
    // Written after them in the same tick: it waits behind them, and its client leaves meanwhile.
    await new Promise((resolve) => process.nextTick(resolve))
    leaving.end('GET /gone HTTP/1.1\r\nHost: localhost\r\n\r\n')
    expect((await answers).map((answer) => answer.status)).toEqual([200, 200, 200])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(started).toEqual(['/a', '/b', '/c'])
    const after = await Promise.all(['/d', '/e', '/f', '/g'].map((path) => get(path)))
    expect(after.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
  })
})
