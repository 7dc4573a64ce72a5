import { beforeAll, describe, expect, it } from 'vitest'
import { userIdFromList } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// Small bodies that made conform build huge values (sparse arrays, quadratic joins) and echo them
// back: each must be refused with a small 400 while the rest of the site keeps answering.
const { server, admin } = await startServerForFileSignedIn()

const UNREADABLE = 'The form could not be read. Please reload the page and try again.'
const SMALL = 64 * 1024

function urlEncoded(pairs: string[]) {
  return { type: 'application/x-www-form-urlencoded', body: pairs.join('&') }
}

function multipart(count: number, name: string) {
  const boundary = 'hostile-boundary'
  const part = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`
  return { type: `multipart/form-data; boundary=${boundary}`, body: part.repeat(count) + `--${boundary}--\r\n` }
}

const PAYLOADS = {
  'rows of an unknown list (20,000 `a{i}[{i}].b[{i}]`)': urlEncoded(
    Array.from({ length: 20_000 }, (_, i) => `a${i}%5B${i}%5D.b%5B${i}%5D=x`),
  ),
  'one field repeated 40,000 times': urlEncoded(Array.from({ length: 40_000 }, () => 'name=')),
  'one field repeated 40,000 times as multipart': multipart(40_000, 'name'),
  'one huge index (`x[10000000]=1`)': urlEncoded(['x%5B10000000%5D=1']),
}

function postRaw(path: string, { type, body }: { type: string; body: string }, cookie?: string) {
  return fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, 'content-type': type, ...(cookie ? { cookie } : {}) },
    body,
  })
}

async function timeHealthCheck(): Promise<number> {
  const start = performance.now()
  const health = await fetch(`${server.url}/healthz`)
  await health.arrayBuffer()
  return performance.now() - start
}

/** Asks /healthz again and again until `request` is answered; the times each answer took. */
async function healthWhile<T>(request: Promise<T>): Promise<{ result: T; times: number[] }> {
  let answered = false
  const settled = request.finally(() => (answered = true))
  const times: number[] = []
  do times.push(await timeHealthCheck())
  while (!answered)
  return { result: await settled, times }
}

describe('a hostile form body to a public form', () => {
  beforeAll(async () => {
    // The first render of each page is slower than any other: time the site warm, as a visitor finds it.
    for (const path of ['/contact', '/login', '/healthz']) await (await fetch(server.url + path)).arrayBuffer()
  })

  for (const path of ['/contact', '/login', '/contact.data']) {
    for (const [name, payload] of Object.entries(PAYLOADS)) {
      it(`${path}: ${name} gets a small 400 and the site keeps answering`, async () => {
        // /healthz waits while any page is rendered, the longer the busier the machine: allow it 200 ms
        // more than it takes beside an ordinary visit to the same page.
        const ordinary = await healthWhile(fetch(server.url + path).then((response) => response.arrayBuffer()))
        const { result, times } = await healthWhile(
          postRaw(path, payload).then(async (response) => ({ status: response.status, text: await response.text() })),
        )
        expect(result.status).toBe(400)
        expect(result.text.length).toBeLessThan(SMALL)
        if (!path.endsWith('.data')) expect(result.text).toContain(UNREADABLE)
        expect(Math.max(...times)).toBeLessThan(Math.max(...ordinary.times) + 200)
        expect(server.process.exitCode).toBeNull()
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      })
    }
  }

  it('sends back no value longer than its field allows, and never a password', async () => {
    const long = 'y'.repeat(6000)
    const contact = await postRaw(
      '/contact',
      urlEncoded([`name=Ann`, `email=ann%40example.org`, `subject=general`, `message=${long}`]),
    )
    expect(contact.status).toBe(400)
    const page = await contact.text()
    expect(page).toContain('Your message can be at most 5000 characters')
    expect(page).not.toContain(long.slice(0, 5001))

    const login = await postRaw('/login', urlEncoded([`email=${'z'.repeat(300)}`, 'password=hunter2-secret']))
    expect(login.status).toBe(400)
    const answer = await login.text()
    expect(answer).not.toContain('z'.repeat(255))
    expect(answer).not.toContain('hunter2-secret')
  })
})

describe('a hostile form body to a signed-in form', () => {
  it('gets a small 400 on every admin form', async () => {
    const adminId = await userIdFromList(server, admin, 'Administrator')
    const paths = [
      '/admin/account',
      '/admin/users/new',
      `/admin/users/${adminId}`,
      '/admin/news/new',
      '/admin/news',
      '/admin/settings',
      '/admin/pages?page=about',
      '/admin/messages/00000000-0000-0000-0000-000000000000',
    ]
    for (const path of paths) {
      const response = await postRaw(path, PAYLOADS['one huge index (`x[10000000]=1`)'], admin)
      expect(response.status, path).toBe(400)
      expect((await response.text()).length, path).toBeLessThan(SMALL)
    }
  })
})
