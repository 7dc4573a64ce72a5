import fs from 'node:fs'
import path from 'node:path'
import * as tus from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UPLOAD_REFUSED } from '~/platform/media/upload-policy'
import { post, signIn } from '../setup/http-session'
import { startTestServer } from '../setup/server'
import { execOnServerDatabase, queryServerDatabase } from '../setup/server-database'

// Small limits, so that reaching them sends few bytes: the defaults (20, 500 MB, 300, 1,000 MB) work the same way.
const LIMITS = {
  UPLOAD_LIMIT_UNFINISHED: '3',
  UPLOAD_LIMIT_UNFINISHED_MB: '100',
  UPLOAD_LIMIT_PER_HOUR: '12',
  UPLOAD_LIMIT_MB_PER_HOUR: '200',
}
const server = await startTestServer(LIMITS)
afterAll(async () => {
  await server.stop()
})
const MB = 1024 * 1024
const ENDPOINT = '/admin/uploads'

/** A marketplace manager of their own for each test, so that their quotas start empty. */
let admin: string
let managers = 0
beforeAll(async () => {
  admin = await signIn(server)
})
async function aMarketplaceManager(): Promise<{ cookie: string; userId: string }> {
  const email = `seller${++managers}@example.org`
  const added = await post(
    server,
    '/admin/users/new',
    { name: email, email, role: 'marketplace', password: 'a long password' },
    admin,
  )
  expect(added.status).toBe(302)
  const [{ id }] = await queryServerDatabase<{ id: string }>(server, `select id from users where email = '${email}'`)
  return { cookie: await signIn(server, email, 'a long password'), userId: id }
}

function tusRequest(method: string, url: string, cookie: string, headers: Record<string, string> = {}, body?: Uint8Array) {
  return fetch(server.url + url, {
    method,
    redirect: 'manual',
    headers: { origin: server.url, cookie, 'tus-resumable': '1.0.0', ...headers },
    body: body ? new Uint8Array(body) : undefined,
  })
}

function create(size: number, cookie: string) {
  return tusRequest('POST', ENDPOINT, cookie, { 'upload-length': String(size) })
}

async function created(size: number, cookie: string): Promise<string> {
  const response = await create(size, cookie)
  expect(response.status).toBe(201)
  return response.headers.get('location')!
}

function send(url: string, cookie: string, bytes: Uint8Array, offset = 0) {
  return tusRequest(
    'PATCH',
    url,
    cookie,
    { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    bytes,
  )
}

function tusFiles(): string[] {
  const dir = path.join(server.database.env.DATA_DIR, 'tus')
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []
}

async function uploadsOf(userId: string): Promise<number> {
  const rows = await queryServerDatabase<{ n: number }>(server, `select count(*) as n from uploads where user_id = '${userId}'`)
  return Number(rows[0].n)
}

/** The refusal: its status, its words (plain text), and that it left neither a file nor a record. */
async function expectRefused(response: Response, status: number, message: string, filesBefore: string[]) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
  expect((await response.text()).trim()).toBe(message)
  expect(tusFiles()).toEqual(filesBefore)
}

async function moveStart(uploadUrl: string, minutesAgo: number) {
  const at = new Date(Date.now() - minutesAgo * 60_000).toISOString()
  await execOnServerDatabase(
    server,
    `update upload_starts set started_at = '${at}' where upload_id = '${uploadUrl.split('/').pop()}'`,
  )
}

describe('upload quotas per user', () => {
  it('refuses a fourth unfinished upload with 429 and a clear message before anything is written; a finished one frees its place', async () => {
    const { cookie, userId } = await aMarketplaceManager()
    // A file sent whole with its creation (creation-with-upload) is finished at once.
    const whole = await tusRequest(
      'POST',
      ENDPOINT,
      cookie,
      { 'upload-length': '10', 'content-type': 'application/offset+octet-stream' },
      Buffer.alloc(10),
    )
    expect(whole.status).toBe(201)
    const [first] = [await created(10, cookie), await created(10, cookie), await created(10, cookie)]
    const files = tusFiles()

    await expectRefused(await create(10, cookie), 429, UPLOAD_REFUSED.tooManyUnfinished(3), files)
    expect(await uploadsOf(userId)).toBe(4)

    expect((await send(first, cookie, Buffer.alloc(10))).status).toBe(204)
    await created(10, cookie)
  })

  it('refuses an upload that would take the unfinished ones over 100 MB with 413, before anything is written', async () => {
    const { cookie, userId } = await aMarketplaceManager()
    await created(40 * MB, cookie)
    const second = await created(40 * MB, cookie)
    const files = tusFiles()

    await expectRefused(await create(30 * MB, cookie), 413, UPLOAD_REFUSED.tooLargeWithUnfinished(100), files)
    expect(await uploadsOf(userId)).toBe(2)
    await created(20 * MB, cookie)

    // Removing one gives its bytes back.
    expect((await tusRequest('DELETE', second, cookie)).status).toBe(204)
    await created(40 * MB, cookie)
  })

  it('counts the bytes of every upload started in the last hour, removed ones too, and says when to try again', async () => {
    const { cookie } = await aMarketplaceManager()
    const starts: string[] = []
    for (let i = 0; i < 4; i++) {
      const url = await created(50 * MB, cookie)
      expect((await tusRequest('DELETE', url, cookie)).status).toBe(204)
      starts.push(url)
    }
    const files = tusFiles()
    const refused = await create(1, cookie)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3300)
    await expectRefused(refused, 429, UPLOAD_REFUSED.tooLargeThisHour(200, '60 minutes'), files)

    // The window slides: once the first 50 MB started 40 minutes ago, it leaves the hour in 20.
    await moveStart(starts[0], 40)
    const later = await create(50 * MB, cookie)
    expect(Number(later.headers.get('retry-after'))).toBeGreaterThan(1100)
    expect(Number(later.headers.get('retry-after'))).toBeLessThanOrEqual(1200)
    await expectRefused(later, 429, UPLOAD_REFUSED.tooLargeThisHour(200, '20 minutes'), files)

    await moveStart(starts[0], 61)
    await created(50 * MB, cookie)
  })

  it('counts the uploads started in the last hour, however small', async () => {
    const { cookie } = await aMarketplaceManager()
    for (let i = 0; i < 12; i++) {
      expect((await tusRequest('DELETE', await created(1, cookie), cookie)).status).toBe(204)
    }
    const files = tusFiles()
    await expectRefused(await create(1, cookie), 429, UPLOAD_REFUSED.tooManyThisHour(12, '60 minutes'), files)
  })

  it('gives parallel requests no more places than there are', async () => {
    const { cookie, userId } = await aMarketplaceManager()
    const responses = await Promise.all(Array.from({ length: 12 }, () => create(10, cookie)))
    const statuses = responses.map((r) => r.status).sort()
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(429)])
    expect(await uploadsOf(userId)).toBe(3)
  })

  it('gives tus-js-client the refusal in words, as the upload field shows it', async () => {
    const { cookie } = await aMarketplaceManager()
    for (let i = 0; i < 3; i++) await created(10, cookie)
    const error = await new Promise<tus.DetailedError>((resolve, reject) => {
      const upload = new tus.Upload(Buffer.alloc(10), {
        endpoint: server.url + ENDPOINT,
        headers: { cookie, origin: server.url },
        retryDelays: [0, 100],
        onSuccess: () => reject(new Error('The upload was not refused')),
        onError: (e) => resolve(e as tus.DetailedError),
      })
      upload.start()
    })
    expect(error.originalResponse?.getStatus()).toBe(429)
    expect(error.originalResponse?.getBody().trim()).toBe(UPLOAD_REFUSED.tooManyUnfinished(3))
  })

  it('removes an unfinished upload silent for over an hour, but keeps a quieter one and a finished one', async () => {
    const { cookie, userId } = await aMarketplaceManager()
    const [silent, quieter, finished] = [await created(10, cookie), await created(10, cookie), await created(10, cookie)]
    for (const url of [silent, quieter]) expect((await send(url, cookie, Buffer.alloc(5))).status).toBe(204)
    expect((await send(finished, cookie, Buffer.alloc(10))).status).toBe(204)
    const idOf = (url: string) => url.split('/').pop()!
    const lastActive = async (url: string, minutesAgo: number) => {
      const at = new Date(Date.now() - minutesAgo * 60_000).toISOString()
      await execOnServerDatabase(server, `update uploads set updated_at = '${at}' where id = '${idOf(url)}'`)
    }
    await lastActive(silent, 61)
    await lastActive(quieter, 50)
    await lastActive(finished, 61)

    // Another process on the same site sweeps when it starts (and every ten minutes after).
    const other = await startTestServer(LIMITS, { sharedDatabase: server.database })
    try {
      await expect.poll(() => tusFiles().includes(idOf(silent)), { timeout: 15_000 }).toBe(false)
    } finally {
      await other.stop()
    }
    expect((await tusRequest('HEAD', silent, cookie)).status).toBe(404)
    expect(tusFiles()).toEqual(expect.arrayContaining([idOf(quieter), idOf(finished)]))
    expect((await tusRequest('HEAD', quieter, cookie)).headers.get('upload-offset')).toBe('5')
    expect(await uploadsOf(userId)).toBe(2)
    // Its place is free again: with the quieter one, three unfinished.
    await created(10, cookie)
    await created(10, cookie)
  })
})
