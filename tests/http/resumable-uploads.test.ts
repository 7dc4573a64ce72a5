import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import * as tus from 'tus-js-client'
import { beforeAll, describe, expect, it } from 'vitest'
import { post, signIn } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()
const MB = 1024 * 1024
const ENDPOINT = '/admin/uploads'

let secondAdmin: string
let marketplace: string
beforeAll(async () => {
  for (const [email, role] of [
    ['ada@example.org', 'admin'],
    ['mia@example.org', 'marketplace'],
  ]) {
    const added = await post(server, '/admin/users/new', { name: email, email, role, password: 'a long password' }, admin)
    expect(added.status).toBe(302)
  }
  secondAdmin = await signIn(server, 'ada@example.org', 'a long password')
  marketplace = await signIn(server, 'mia@example.org', 'a long password')
})

function tusRequest(
  method: string,
  url: string,
  cookie: string | undefined,
  headers: Record<string, string> = {},
  body?: BodyInit,
) {
  return fetch(server.url + url, {
    method,
    redirect: 'manual',
    headers: { origin: server.url, 'tus-resumable': '1.0.0', ...(cookie ? { cookie } : {}), ...headers },
    body,
  })
}

function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',')
}

/** Starts an upload and returns its URL (path only). */
async function createUpload(size: number, cookie = admin, filename = 'clip.mp4'): Promise<string> {
  const res = await tusRequest('POST', ENDPOINT, cookie, {
    'upload-length': String(size),
    'upload-metadata': metadata({ filename, filetype: 'video/mp4' }),
  })
  expect(res.status).toBe(201)
  const location = res.headers.get('location')!
  expect(location).toMatch(/^\/admin\/uploads\/[0-9a-f]{32}$/)
  return location
}

function patch(url: string, offset: number, bytes: Uint8Array, cookie = admin) {
  return tusRequest(
    'PATCH',
    url,
    cookie,
    { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    new Uint8Array(bytes),
  )
}

/**
 * The status of a PATCH that the server may refuse before it has read the whole body. It answers
 * and closes at once, so a client still writing sees the answer and then a broken pipe: this one
 * takes the answer, as curl and browsers do (fetch gives up on the broken pipe). On a busy machine
 * the connection can be cut before the answer is read (the server stops reading the rest of the
 * body after half a second, and unread bytes make the close a reset); a refused chunk changes
 * nothing, so the chunk is sent again then, as tus clients do after a network error.
 */
async function statusOfRefusablePatch(url: string, offset: number, bytes: Uint8Array): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await sendRefusablePatch(url, offset, bytes)
    } catch (error) {
      if (attempt === 3) throw error
    }
  }
}

function sendRefusablePatch(url: string, offset: number, bytes: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(server.url + url, {
      method: 'PATCH',
      headers: {
        origin: server.url,
        cookie: admin,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.byteLength),
      },
    })
    let answered = false
    request.on('response', (response) => {
      answered = true
      response.resume()
      resolve(response.statusCode!)
    })
    request.on('error', (error) => {
      if (!answered) reject(error)
    })
    request.end(bytes)
  })
}

async function offsetOf(url: string, cookie = admin): Promise<number> {
  const res = await tusRequest('HEAD', url, cookie)
  expect(res.status).toBe(200)
  return Number(res.headers.get('upload-offset'))
}

/** Sends `bytes` from `offset` on in 5 MB chunks, as the browser does. */
async function sendRest(url: string, bytes: Buffer, offset: number) {
  while (offset < bytes.length) {
    const chunk = bytes.subarray(offset, Math.min(offset + 5 * MB, bytes.length))
    const res = await patch(url, offset, chunk)
    expect(res.status).toBe(204)
    offset = Number(res.headers.get('upload-offset'))
  }
}

function storedPartial(url: string): Buffer {
  return fs.readFileSync(path.join(server.database.env.DATA_DIR, 'tus', url.split('/').pop()!))
}

function tusFiles(): string[] {
  const dir = path.join(server.database.env.DATA_DIR, 'tus')
  return fs.existsSync(dir) ? fs.readdirSync(dir) : []
}

describe('resumable uploads (tus)', () => {
  it('takes a file in 5 MB chunks and resumes from what arrived after a chunk is cut off', async () => {
    const file = crypto.randomBytes(12 * MB)
    const url = await createUpload(file.length)
    expect(await offsetOf(url)).toBe(0)

    const first = await patch(url, 0, file.subarray(0, 5 * MB))
    expect(first.status).toBe(204)
    expect(first.headers.get('upload-offset')).toBe(String(5 * MB))

    // The second chunk: 2 of its 5 MB go out, then the connection drops.
    const interrupted = http.request(server.url + url, {
      method: 'PATCH',
      headers: {
        origin: server.url,
        cookie: admin,
        'tus-resumable': '1.0.0',
        'upload-offset': String(5 * MB),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(5 * MB),
      },
    })
    interrupted.on('error', () => {})
    interrupted.write(file.subarray(5 * MB, 7 * MB))
    await expect.poll(() => storedPartial(url).length, { timeout: 10_000 }).toBeGreaterThan(5 * MB)
    interrupted.destroy()

    // HEAD says how much arrived; the rest goes on from there.
    const resumeAt = await offsetOf(url)
    expect(resumeAt).toBeGreaterThan(5 * MB)
    expect(resumeAt).toBeLessThanOrEqual(7 * MB)
    await sendRest(url, file, resumeAt)

    expect(await offsetOf(url)).toBe(file.length)
    expect(storedPartial(url).equals(file)).toBe(true)
  })

  it('works with tus-js-client, the library the browser uses', async () => {
    const file = crypto.randomBytes(6 * MB)
    const progress: number[] = []
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(file, {
        endpoint: server.url + ENDPOINT,
        chunkSize: 5 * MB,
        metadata: { filename: 'holiday.mov', filetype: 'video/quicktime' },
        headers: { cookie: admin, origin: server.url },
        onProgress: (sent) => progress.push(sent),
        onSuccess: () => resolve(upload.url!),
        onError: reject,
      })
      upload.start()
    })
    expect(new URL(url).pathname).toMatch(/^\/admin\/uploads\/[0-9a-f]{32}$/)
    expect(progress.at(-1)).toBe(file.length)
    expect(storedPartial(new URL(url).pathname).equals(file)).toBe(true)
  })

  it('refuses a file declared larger than 50 MB before any byte arrives', async () => {
    const before = tusFiles().length
    const res = await tusRequest('POST', ENDPOINT, admin, { 'upload-length': String(60 * MB) })
    expect(res.status).toBe(413)
    const deferred = await tusRequest('POST', ENDPOINT, admin, { 'upload-defer-length': '1' })
    expect(deferred.status).toBe(400)
    expect(tusFiles().length).toBe(before)
  })

  it('stops a 60 MB file sent under a 50 MB declaration at 50 MB', async () => {
    const file = Buffer.alloc(60 * MB, 7)
    const url = await createUpload(50 * MB)
    await sendRest(url, file.subarray(0, 50 * MB), 0)
    expect(await statusOfRefusablePatch(url, 50 * MB, file.subarray(50 * MB, 55 * MB))).toBe(413)
    // one request claiming more than its chunk: refused too
    const small = await createUpload(1 * MB)
    expect(await statusOfRefusablePatch(small, 0, file.subarray(0, 2 * MB))).toBe(413)
    expect(await offsetOf(url)).toBe(50 * MB)
    expect(storedPartial(url).length).toBe(50 * MB)
  })

  it("refuses a chunk, HEAD or DELETE on another user's upload as if it did not exist", async () => {
    const url = await createUpload(1 * MB)
    expect((await patch(url, 0, Buffer.alloc(1000), secondAdmin)).status).toBe(404)
    expect((await tusRequest('HEAD', url, secondAdmin)).status).toBe(404)
    expect((await tusRequest('DELETE', url, secondAdmin)).status).toBe(404)
    expect(await offsetOf(url)).toBe(0)

    expect((await tusRequest('DELETE', url, admin)).status).toBe(204)
    expect((await tusRequest('HEAD', url, admin)).status).toBe(404)
    expect(tusFiles().some((name) => url.endsWith(name))).toBe(false)
  })

  it.each([
    `${ENDPOINT}/..%2F..%2Fsite.db`,
    `${ENDPOINT}/..%2Ftus%2F0123456789abcdef0123456789abcdef`,
    `${ENDPOINT}/0123456789ABCDEF0123456789ABCDEF`,
    `${ENDPOINT}/not-an-id`,
  ])('refuses the upload id in %s', async (url) => {
    expect((await tusRequest('HEAD', url, admin)).status).toBe(404)
    expect((await patch(url, 0, Buffer.alloc(10))).status).toBe(404)
    expect((await tusRequest('DELETE', url, admin)).status).toBe(404)
  })

  it("refuses anonymous visitors, other sites, and another user's upload", async () => {
    const url = await createUpload(1 * MB)
    for (const res of [
      await tusRequest('POST', ENDPOINT, undefined, { 'upload-length': '10' }),
      await patch(url, 0, Buffer.alloc(10), ''),
      await tusRequest('HEAD', url, undefined),
    ]) {
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toMatch(/^\/login\?redirectTo=/)
    }
    // A marketplace manager uploads product images, but never touches the admin's upload.
    expect((await tusRequest('POST', ENDPOINT, marketplace, { 'upload-length': '10' })).status).toBe(201)
    for (const res of [await patch(url, 0, Buffer.alloc(10), marketplace), await tusRequest('HEAD', url, marketplace)]) {
      expect(res.status).toBe(404)
    }
    const crossSite = await tusRequest('POST', ENDPOINT, admin, { 'upload-length': '10', origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
    expect(await offsetOf(url)).toBe(0)
  })

  it('answers OPTIONS as the tus protocol says, with what it supports, to signed-in users only', async () => {
    // As a generic tus client asks: no Tus-Resumable header is needed on OPTIONS.
    const options = await fetch(server.url + ENDPOINT, { method: 'OPTIONS', redirect: 'manual', headers: { cookie: admin } })
    expect(options.status).toBe(204)
    expect(options.headers.get('tus-resumable')).toBe('1.0.0')
    expect(options.headers.get('tus-version')).toBe('1.0.0')
    expect(options.headers.get('tus-max-size')).toBe(String(50 * MB))
    expect(options.headers.get('tus-extension')?.split(',').sort()).toEqual(['creation', 'creation-with-upload', 'termination'])
    expect(options.headers.get('access-control-allow-origin')).toBeNull()
    const anonymous = await fetch(server.url + ENDPOINT, { method: 'OPTIONS', redirect: 'manual' })
    expect(anonymous.status).toBe(302)

    // creation-with-upload: the first bytes come with the creation.
    const content = Buffer.from('sent with the creation')
    const created = await tusRequest(
      'POST',
      ENDPOINT,
      admin,
      {
        'upload-length': String(content.length),
        'upload-metadata': metadata({ filename: 'note.txt' }),
        'content-type': 'application/offset+octet-stream',
      },
      new Uint8Array(content),
    )
    expect(created.status).toBe(201)
    expect(created.headers.get('upload-offset')).toBe(String(content.length))
    expect(storedPartial(created.headers.get('location')!).equals(content)).toBe(true)
  })

  it('never hands an upload back for download', async () => {
    const url = await createUpload(10)
    await patch(url, 0, Buffer.from('0123456789'))
    const res = await fetch(server.url + url, { headers: { cookie: admin } })
    expect(res.status).toBe(405)
  })
})
