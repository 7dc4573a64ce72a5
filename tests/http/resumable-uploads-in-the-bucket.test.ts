import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { GetObjectCommand, HeadObjectCommand, ListObjectsCommand, ListPartsCommand, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { UPLOAD_MAX_BYTES, UPLOAD_REFUSED } from '~/platform/media/upload-policy'
import { signIn } from '../setup/http-session'
import { s3Env, startS3Server } from '../setup/s3-server'
import { startTestServer } from '../setup/server'
import { execOnServerDatabase, queryServerDatabase } from '../setup/server-database'

// With STORAGE_DRIVER=s3 an unfinished upload is a multipart upload in the bucket: the protocol,
// the quotas and the sweep of silent uploads are the same as on local disk.
const s3 = await startS3Server()
const bucket = await s3.createBucket()
const settings = { ...s3Env(bucket), UPLOAD_LIMIT_UNFINISHED: '3' }
const server = await startTestServer(settings)
const client = new S3Client({
  endpoint: bucket.endpoint,
  region: bucket.region,
  forcePathStyle: true,
  credentials: { accessKeyId: bucket.accessKeyId, secretAccessKey: bucket.secretAccessKey },
})
let admin: string
beforeAll(async () => {
  admin = await signIn(server)
})
afterAll(async () => {
  await server.stop()
  client.destroy()
  await s3.stop()
})
const MB = 1024 * 1024

function tusRequest(method: string, url: string, headers: Record<string, string> = {}, body?: BodyInit) {
  return fetch(server.url + url, {
    method,
    redirect: 'manual',
    headers: { origin: server.url, cookie: admin, 'tus-resumable': '1.0.0', ...headers },
    body,
  })
}

async function created(size: number): Promise<string> {
  const response = await tusRequest('POST', '/admin/uploads', { 'upload-length': String(size) })
  expect(response.status, await response.clone().text()).toBe(201)
  return response.headers.get('location')!
}

async function send(url: string, offset: number, bytes: number): Promise<Response> {
  const headers = { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }
  return tusRequest('PATCH', url, headers, new Uint8Array(bytes).fill(7))
}

const idOf = (url: string) => url.split('/').pop()!

async function bucketKeys(): Promise<string[]> {
  return ((await client.send(new ListObjectsCommand({ Bucket: bucket.bucket }))).Contents ?? []).map((o) => o.Key!)
}

/** The S3 multipart upload behind a tus upload, from the `.info` object @tus/s3-store keeps beside it. */
async function multipartUploadOf(url: string): Promise<string> {
  const info = await client.send(new HeadObjectCommand({ Bucket: bucket.bucket, Key: `${idOf(url)}.info` }))
  return info.Metadata!['upload-id']
}

it('announces the same protocol as on local disk', async () => {
  const response = await tusRequest('OPTIONS', '/admin/uploads')
  expect(response.status).toBe(204)
  expect(response.headers.get('tus-version')).toBe('1.0.0')
  expect(response.headers.get('tus-max-size')).toBe(String(UPLOAD_MAX_BYTES))
  // No deferred length and no Upload-Expires: the sweep decides.
  expect(response.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination')
})

it('keeps the chunks in the bucket, answers HEAD with what arrived, and leaves nothing on local disk', async () => {
  const url = await created(12 * MB)
  expect((await send(url, 0, 5 * MB)).headers.get('upload-offset')).toBe(String(5 * MB))
  expect((await tusRequest('HEAD', url)).headers.get('upload-offset')).toBe(String(5 * MB))
  const parts = await client.send(
    new ListPartsCommand({ Bucket: bucket.bucket, Key: idOf(url), UploadId: await multipartUploadOf(url) }),
  )
  expect(parts.Parts?.map((part) => part.Size)).toEqual([5 * MB])
  // A chunk under S3's 5 MB part minimum waits in the bucket for the next one.
  expect((await send(url, 5 * MB, 3 * MB)).headers.get('upload-offset')).toBe(String(8 * MB))
  expect((await tusRequest('HEAD', url)).headers.get('upload-offset')).toBe(String(8 * MB))
  expect((await send(url, 8 * MB, 4 * MB)).headers.get('upload-offset')).toBe(String(12 * MB))

  const stored = await client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key: idOf(url) }))
  expect(stored.ContentLength).toBe(12 * MB)
  expect(fs.existsSync(path.join(server.database.env.DATA_DIR, 'tus'))).toBe(false)

  expect((await tusRequest('DELETE', url)).status).toBe(204)
  expect((await bucketKeys()).filter((key) => key.startsWith(idOf(url)))).toEqual([])
  expect((await tusRequest('HEAD', url)).status).toBe(404)
})

it('refuses a fourth unfinished upload with the same message, then sweeps a silent one and aborts its multipart upload', async () => {
  const uploads = [await created(10), await created(10), await created(10)]
  const refused = await tusRequest('POST', '/admin/uploads', { 'upload-length': '10' })
  expect(refused.status).toBe(429)
  expect(await refused.text()).toContain(UPLOAD_REFUSED.tooManyUnfinished(3))

  const [silent, quieter] = uploads
  for (const url of [silent, quieter]) expect((await send(url, 0, 5)).status).toBe(204)
  const silentMultipart = await multipartUploadOf(silent)
  const lastActive = (url: string, minutesAgo: number) =>
    execOnServerDatabase(
      server,
      `update uploads set updated_at = '${new Date(Date.now() - minutesAgo * 60_000).toISOString()}' where id = '${idOf(url)}'`,
    )
  await lastActive(silent, 61)
  await lastActive(quieter, 50)

  // Another process on the same site and bucket sweeps when it starts.
  const other = await startTestServer(settings, { sharedDatabase: server.database })
  try {
    await expect
      .poll(async () => (await bucketKeys()).some((key) => key.startsWith(idOf(silent))), { timeout: 15_000 })
      .toBe(false)
  } finally {
    await other.stop()
  }
  const listed = client.send(new ListPartsCommand({ Bucket: bucket.bucket, Key: idOf(silent), UploadId: silentMultipart }))
  await expect(listed).rejects.toMatchObject({ name: 'NoSuchUpload' })
  expect((await tusRequest('HEAD', silent)).status).toBe(404)
  expect((await tusRequest('HEAD', quieter)).headers.get('upload-offset')).toBe('5')
  // Its place is free again; the places go back for the next test.
  for (const url of [quieter, uploads[2], await created(10)]) expect((await tusRequest('DELETE', url)).status).toBe(204)
})

it('ends a chunk still arriving at one process when the browser resumes through another, and loses no byte', async () => {
  const other = await startTestServer(settings, { sharedDatabase: server.database })
  let stalled: http.ClientRequest | undefined
  try {
    const data = crypto.randomBytes(8 * MB)
    const url = await created(data.length)
    // A connection that broke mid-chunk without the server noticing: 6 MB of the 8 MB it announced, then nothing more.
    let stalledEnded = false
    stalled = http.request(server.url + url, {
      method: 'PATCH',
      headers: {
        origin: server.url,
        cookie: admin,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(data.length),
      },
    })
    stalled.on('response', (response) => response.resume().on('end', () => (stalledEnded = true)))
    stalled.on('error', () => (stalledEnded = true))
    stalled.write(data.subarray(0, 6 * MB))
    const locked = async () =>
      (await queryServerDatabase(server, `select 1 from upload_locks where upload_id = '${idOf(url)}'`)).length
    await expect.poll(locked, { timeout: 10_000 }).toBe(1)

    // The browser resumes through the other process: it waits for the first to let go of the upload.
    const head = await fetch(other.url + url, {
      method: 'HEAD',
      headers: { origin: other.url, cookie: admin, 'tus-resumable': '1.0.0' },
    })
    expect(head.status).toBe(200)
    await expect.poll(() => stalledEnded, { timeout: 2_000 }).toBe(true)
    const offset = Number(head.headers.get('upload-offset'))
    const headers = { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }
    const rest = await fetch(other.url + url, {
      method: 'PATCH',
      body: new Uint8Array(data.subarray(offset)),
      headers: { origin: other.url, cookie: admin, 'tus-resumable': '1.0.0', ...headers },
    })
    expect(rest.status).toBe(204)
    expect(rest.headers.get('upload-offset')).toBe(String(data.length))
    const stored = await client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key: idOf(url) }))
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(data)).toBe(true)
  } finally {
    stalled?.destroy()
    await other.stop()
  }
})
