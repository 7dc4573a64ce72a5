import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// Two app processes on one database (a rolling restart, or a second instance) take a burst of
// contact-form posts at once. Each post is a transaction (message + pending delivery) plus a
// rate-limit counter update, while both processes' delivery workers compete for the deliveries:
// nothing may fail, be lost or happen twice.
const CLIENTS = 6
const POSTS_PER_CLIENT = 10 // the contact form's limit per client address and hour
const POSTS = CLIENTS * POSTS_PER_CLIENT

let first: TestServer
let second: TestServer
let forwardServer: http.Server
const forwarded: string[] = []

beforeAll(async () => {
  forwardServer = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      forwarded.push((JSON.parse(body) as { name: string }).name)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  forwardServer.listen(0, '127.0.0.1')
  await once(forwardServer, 'listening')
  const env = {
    TRUST_PROXY: 'true', // so that each simulated visitor has an address of its own
    CONTACT_FORWARD_URL: `http://127.0.0.1:${(forwardServer.address() as AddressInfo).port}/contact`,
  }
  first = await startTestServer(env)
  second = await startTestServer(env, { sharedDatabase: first.database })
})

afterAll(async () => {
  await second?.stop() // shares the first one's database, which goes when the first stops
  await first?.stop()
  forwardServer?.closeAllConnections()
  await new Promise((resolve) => forwardServer?.close(resolve))
})

const visitor = (n: number) => `Visitor ${String(n).padStart(2, '0')}`
const clientAddress = (client: number) => `198.51.100.${client + 1}`

function postMessage(server: TestServer, name: string, client: number) {
  return fetch(`${server.url}/contact`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: server.url,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': clientAddress(client),
    },
    body: new URLSearchParams({ name, email: 'visitor@example.com', subject: 'volunteer', message: `Hello from ${name}` }),
  })
}

async function exitCode(server: TestServer): Promise<number | null> {
  if (server.process.exitCode !== null) return server.process.exitCode
  const exited = once(server.process, 'exit') as Promise<[number | null]>
  server.process.kill('SIGTERM')
  return (await exited)[0]
}

describe('two server processes on one database', () => {
  it(
    'store and count every one of many simultaneous messages exactly once, and send none twice',
    { timeout: 60_000 },
    async () => {
      // Each visitor's posts alternate between the processes, so both update the same counters.
      const sent = Array.from({ length: POSTS }, (_, n) => ({
        name: visitor(n),
        client: n % CLIENTS,
        server: Math.floor(n / CLIENTS) % 2 === 0 ? first : second,
      }))
      const responses = await Promise.all(sent.map((post) => postMessage(post.server, post.name, post.client)))
      expect(responses.map((res) => res.status)).toEqual(sent.map(() => 303))

      // Every attempt was counted once, whichever process took it: each visitor's next post is refused.
      const extra = await Promise.all(
        Array.from({ length: CLIENTS }, (_, client) =>
          postMessage(client % 2 === 0 ? first : second, `Too many ${client}`, client),
        ),
      )
      expect(extra.map((res) => res.status)).toEqual(extra.map(() => 429))
      for (const res of extra) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)

      // The burst is forwarded at once, not one batch per timer tick, whichever process took each message.
      await expect.poll(() => forwarded.length, { timeout: 20_000 }).toBe(POSTS)

      // Stopping waits for the sends in flight, so a second send of any message would be counted below.
      expect(await exitCode(second)).toBe(0)
      expect(await exitCode(first)).toBe(0)

      const expectedNames = sent.map((post) => post.name).sort()
      const messages = await queryServerDatabase<{ name: string }>(first, 'select name from contact_messages order by name')
      expect(messages.map((m) => m.name)).toEqual(expectedNames)
      const deliveries = await queryServerDatabase<{ name: string; channel: string; status: string; attempts: number }>(
        first,
        `select m.name, d.channel, d.status, d.attempts from contact_deliveries d
       join contact_messages m on m.id = d.message_id order by m.name`,
      )
      expect(deliveries.map(({ name, channel }) => ({ name, channel }))).toEqual(
        expectedNames.map((name) => ({ name, channel: 'forward' })),
      )
      // Each delivery was claimed once and sent once.
      expect(deliveries.filter((d) => d.status !== 'sent' || d.attempts !== 1)).toEqual([])
      expect([...forwarded].sort()).toEqual(expectedNames)

      for (const server of [first, second]) {
        expect(server.output()).not.toMatch(/SQLITE_BUSY|database is locked|deadlock|"level":(50|60)/i)
      }
    },
  )
})
