import { once } from 'node:events'
import http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer, type TestServer } from '../setup/server'

// A deploy or restart sends SIGTERM: a visitor whose message is still uploading over a slow
// phone connection must get the usual thank-you, and the message must be kept.
let server: TestServer | undefined
let agent: http.Agent | undefined

afterEach(async () => {
  agent?.destroy()
  await server?.stop()
})

/** Resolves once the server has printed a line matching `pattern`. */
function outputMatches(running: TestServer, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(running.output())) return
      running.process.stdout!.off('data', check)
      running.process.off('exit', exited)
      resolve()
    }
    const exited = () => reject(new Error(`The server exited before printing ${pattern}:\n${running.output()}`))
    running.process.stdout!.on('data', check)
    running.process.once('exit', exited)
    check()
  })
}

/** Whether a fresh TCP connection to the server's port is refused. */
function connectionRefused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

/**
 * Whether new connections come to be refused. The server closes its listener just after printing
 * that it is stopping, and until then the kernel completes connections on its behalf (they are
 * dropped as idle), so a busy machine may need a few tries. Nothing else can close the listener
 * meanwhile: the open request keeps the server from exiting.
 */
async function connectionsRefused(url: string): Promise<boolean> {
  const deadline = Date.now() + 5_000
  while (Date.now() < deadline) {
    if (await connectionRefused(url)) return true
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return false
}

describe('stopping the server', () => {
  it('finishes a form post that is still uploading, stores it, refuses new connections and exits cleanly', async () => {
    server = await startTestServer()
    const running = server
    const name = 'Grace Before Closing'
    const body = Buffer.from(
      new URLSearchParams({
        name,
        email: 'grace@example.com',
        subject: 'general',
        message: 'Sent over a slow connection just as the server was asked to stop.',
      }).toString(),
    )
    const half = Math.floor(body.length / 2)

    // Keep-alive like a browser: an idle connection left open must not hold up the exit.
    agent = new http.Agent({ keepAlive: true })
    const request = http.request(`${running.url}/contact`, {
      method: 'POST',
      agent,
      headers: {
        origin: running.url,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': body.length,
        // The server answers "100 Continue" once it has taken the request: a signal, not a guess.
        expect: '100-continue',
      },
    })
    const response = once(request, 'response') as Promise<[http.IncomingMessage]>
    response.catch(() => {}) // awaited below; a failure before then must not be reported twice
    request.write(body.subarray(0, half))
    await once(request, 'continue')

    const exited = once(running.process, 'exit') as Promise<[number | null]>
    running.process.kill('SIGTERM')
    await outputMatches(running, /SIGTERM received/)
    expect(await connectionsRefused(running.url)).toBe(true)
    expect(running.process.exitCode).toBeNull() // still waiting for the open request

    request.end(body.subarray(half))
    const [res] = await response
    res.resume()
    await once(res, 'end')
    const answered = Date.now()
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe('/contact?sent=1#message-form')

    const [code] = await exited
    expect(code).toBe(0)
    expect(Date.now() - answered).toBeLessThan(3_000)
    expect(running.output()).not.toMatch(/"level":(50|60)|Error/)

    const stored = await queryServerDatabase<{ name: string; email: string; subject: string }>(
      running,
      `select name, email, subject from contact_messages where name = '${name}'`,
    )
    expect(stored).toEqual([{ name, email: 'grace@example.com', subject: 'general' }])
  })
})
