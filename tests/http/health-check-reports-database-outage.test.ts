import { once } from 'node:events'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../setup/server'
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../setup/test-database'

// A monitor or load balancer polls /healthz: when the database goes away it must hear 503 at
// once (not wait on a hung request), learn nothing about where the database lives, and hear 200
// again when the database is back, without anyone restarting the site.
// The outage is a TCP relay between the server and PostgreSQL that the test cuts and restores,
// so this file runs on PostgreSQL under both Vitest projects.

/**
 * Forwards TCP connections to PostgreSQL. `cut` takes the database away; `freeze` keeps every
 * connection open but lets nothing through, as a database host that stops answering would.
 */
class DatabaseRelay {
  private listener: net.Server | undefined
  private readonly sockets = new Set<net.Socket>()
  /** Writes held back while frozen, in order. */
  private held: (() => void)[] | undefined
  port = 0

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.listener = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host)
      this.forward(client, upstream)
      this.forward(upstream, client)
    })
    // Reopens on the same port: the server's DATABASE_URL names it.
    this.listener.listen(this.port, '127.0.0.1')
    await once(this.listener, 'listening')
    this.port = (this.listener.address() as net.AddressInfo).port
  }

  private forward(from: net.Socket, to: net.Socket): void {
    this.sockets.add(from)
    from.on('error', () => {}) // Broken connections are the point of this relay.
    from.on('data', (chunk) => (this.held ? this.held.push(() => to.write(chunk)) : to.write(chunk)))
    from.on('close', () => {
      this.sockets.delete(from)
      to.destroy()
    })
  }

  /** Refuses new connections and drops the open ones, as a database that went down would. */
  async cut(): Promise<void> {
    const listener = this.listener
    if (!listener) return
    this.listener = undefined
    const closed = new Promise((resolve) => listener.close(resolve))
    for (const socket of this.sockets) socket.destroy()
    await closed
  }

  freeze(): void {
    this.held ??= []
  }

  thaw(): void {
    const held = this.held ?? []
    this.held = undefined
    for (const write of held) write()
  }
}

/** A GET that fails the test instead of hanging when the server does not answer. */
function get(path: string): Promise<Response> {
  return fetch(server.url + path, { signal: AbortSignal.timeout(5_000) })
}

async function healthStatus(): Promise<number> {
  const res = await get('/healthz')
  await res.body?.cancel()
  return res.status
}

/** Polls until `condition` holds, failing after `ms`. */
async function waitFor(condition: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

let database: TestDatabase
let relay: DatabaseRelay
let server: TestServer
let databaseUrl: URL
let schemaName: string

beforeAll(async () => {
  database = await createTestDatabase('postgres')
  const target = new URL(POSTGRES_ADMIN_URL)
  relay = new DatabaseRelay({ host: target.hostname, port: Number(target.port || 5432) })
  await relay.open()
  databaseUrl = new URL(database.env.DATABASE_URL!)
  schemaName = databaseUrl.searchParams.get('options')!.replace(/.*search_path=/, '')
  databaseUrl.hostname = '127.0.0.1'
  databaseUrl.port = String(relay.port)
  // The test server trusts local connections and ignores this; it is here to prove it never leaks.
  if (!databaseUrl.password) databaseUrl.password = 'leak-canary-7f3a9c'
  server = await startTestServer({ DATABASE_URL: databaseUrl.toString() })
})

afterAll(async () => {
  relay?.thaw()
  await server?.stop()
  await relay?.cut()
  await database?.drop()
})

function expectNoConnectionDetails(body: string) {
  expect(body).not.toContain(databaseUrl.toString())
  expect(body).not.toContain(databaseUrl.host)
  expect(body).not.toContain(decodeURIComponent(databaseUrl.password))
  expect(body).not.toContain(schemaName)
  // "timeout" as a word: a page's own script may say setTimeout.
  expect(body).not.toMatch(/search_path|ECONNREFUSED|Connection terminated|\btimeout\b/i)
}

describe('the health check during a database outage', () => {
  it('answers 503 while the database is down, then 200 again once it is back, without a restart', async () => {
    const up = await get('/healthz')
    expect(up.status).toBe(200)
    expect(await up.json()).toEqual({ status: 'ok', database: 'ok' })
    // A page load leaves idle connections in the pool: the outage must cut those too.
    expect((await get('/')).status).toBe(200)

    await relay.cut()

    const startedAt = Date.now()
    const down = await get('/healthz')
    expect(Date.now() - startedAt).toBeLessThan(3_000)
    expect(down.status).toBe(503)
    expect(down.headers.get('cache-control')).toBe('no-store')
    const downBody = await down.text()
    expect(JSON.parse(downBody)).toEqual({ status: 'unavailable', database: 'unreachable' })
    expectNoConnectionDetails(downBody)

    // A page kept from before the outage is still served, from memory (decision 017)...
    const kept = await get('/')
    expect(kept.status).toBe(200)
    expect(kept.headers.get('x-page-cache')).toBe('hit')
    // ...and one that needs the database fails politely, and the process keeps serving.
    const page = await get('/services')
    expect(page.status).toBe(500)
    const pageBody = await page.text()
    expect(pageBody).not.toMatch(/at \S+ \(|\.ts:\d+|node_modules/)
    expectNoConnectionDetails(pageBody)
    expect(await healthStatus()).toBe(503)
    expect(server.process.exitCode).toBeNull()

    await relay.open()

    await waitFor(async () => (await healthStatus()) === 200)
    expect((await get('/')).status).toBe(200)
    expect(server.process.exitCode).toBeNull()
  })

  it('answers 503 within seconds while the database hangs, then 200 once it answers again', async () => {
    expect(await healthStatus()).toBe(200)

    relay.freeze()

    const startedAt = Date.now()
    const hung = await get('/healthz')
    expect(Date.now() - startedAt).toBeLessThan(4_000)
    expect(hung.status).toBe(503)
    expectNoConnectionDetails(await hung.text())
    expect(server.process.exitCode).toBeNull()

    relay.thaw()

    await waitFor(async () => (await healthStatus()) === 200)
  })
})
