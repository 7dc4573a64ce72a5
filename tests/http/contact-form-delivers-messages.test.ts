import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MailCatcher } from '../fixtures/mail-catcher'
import { startTestServer, type TestServer } from '../setup/server'

// The whole path through the real server: the form answers as soon as the message is stored,
// and the server's own worker then e-mails and forwards it.
let server: TestServer
const mail = new MailCatcher()
let forwardServer: http.Server
const forwarded: unknown[] = []
let holdForwards = false

beforeAll(async () => {
  await mail.start()
  forwardServer = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      if (holdForwards) return // a form service that never answers
      forwarded.push(JSON.parse(body))
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  await new Promise<void>((resolve) => forwardServer.listen(0, '127.0.0.1', resolve))
  server = await startTestServer({
    SMTP_URL: mail.url,
    CONTACT_FORWARD_URL: `http://127.0.0.1:${(forwardServer.address() as AddressInfo).port}/contact`,
  })
})

afterAll(async () => {
  await server?.stop()
  await mail.stop()
  forwardServer?.closeAllConnections()
  await new Promise((resolve) => forwardServer?.close(resolve))
})

function postMessage(name: string) {
  return fetch(`${server.url}/contact`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ name, email: 'grace@example.com', subject: 'donation', message: 'How can I give?' }),
  })
}

async function waitFor(condition: () => boolean, what: string) {
  const deadline = Date.now() + 10_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${server.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('a message sent through the contact form', () => {
  it('is e-mailed to the site address and forwarded right after the visitor is thanked', async () => {
    const res = await postMessage('Grace Donor')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/contact?sent=1#message-form')

    await waitFor(() => mail.mails.length === 1 && forwarded.length === 1, 'the e-mail and the forward')
    expect(mail.mails[0].recipients).toEqual(['info@example.org']) // the demo settings' address
    expect(mail.mails[0].parsed.replyTo?.value).toEqual([{ name: 'Grace Donor', address: 'grace@example.com' }])
    // When it came, as the site's clock showed it (the demo settings' time zone), not in UTC machine format.
    expect(mail.mails[0].parsed.text).toMatch(
      /^Received: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M \(America\/Antigua time\)$/m,
    )
    expect(forwarded[0]).toEqual({
      name: 'Grace Donor',
      email: 'grace@example.com',
      phone: '',
      subject: 'donation',
      message: 'How can I give?',
    })
  })

  it('does not keep the visitor waiting for a slow form service, nor the server from shutting down', async () => {
    holdForwards = true
    const started = Date.now()
    const res = await postMessage('Grace Patient')
    expect(res.status).toBe(303)
    expect(Date.now() - started).toBeLessThan(2_000)
    await waitFor(() => mail.mails.length === 2, 'the second e-mail')

    const stopping = Date.now()
    expect(await server.stop()).toBe(0)
    expect(Date.now() - stopping).toBeLessThan(10_000)
  })
})
