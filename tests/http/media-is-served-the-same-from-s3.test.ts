import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createS3Storage } from '~/platform/storage/s3.server'
import type { Storage } from '~/platform/storage/storage'
import { asFile, plainPng } from '../fixtures/images'
import { get, signIn } from '../setup/http-session'
import { s3Env, startS3Server } from '../setup/s3-server'
import { startTestServer } from '../setup/server'

const s3 = await startS3Server()
const bucket = await s3.createBucket()
// An empty site: its demo images go to the bucket too, and nothing to local disk.
const server = await startTestServer(s3Env(bucket), { emptySite: true })
afterAll(async () => {
  await server.stop()
  await s3.stop()
})
const admin = await signIn(server)
const bucketStorage: Storage = createS3Storage(bucket)

async function keysInBucket(): Promise<string[]> {
  const keys = []
  for await (const object of bucketStorage.list('')) keys.push(object.key)
  return keys
}

describe('uploaded files on S3', () => {
  let jpegPath: string
  let bytes: Buffer

  it('stores the images of a new article in the bucket, not on local disk', async () => {
    const before = await keysInBucket()
    const body = new FormData()
    body.set('title', 'Shelves restocked')
    body.set('content', 'Thank you for every tin.')
    body.set('imageAlt', 'Full shelves')
    body.set('image', asFile(await plainPng(1300, 800), 'shelves.png', 'image/png'))
    const res = await fetch(`${server.url}/admin/news/new`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, cookie: admin },
      body,
    })
    expect(res.status).toBe(302)

    const added = (await keysInBucket()).filter((key) => !before.includes(key))
    expect(added).toHaveLength(6)
    expect(fs.existsSync(path.join(server.database.env.DATA_DIR, 'uploads'))).toBe(false)

    // The article's page points at its images through our own /media route.
    const page = await (await get(server, '/news/shelves-restocked')).text()
    jpegPath = page.match(/\/media\/images\/[\w-]+\.jpg/)![0]
    expect(added).toContain(jpegPath.slice('/media/'.length))
    const stored = await bucketStorage.get(jpegPath.slice('/media/'.length))
    bytes = Buffer.from(await new Response(stored!.body).arrayBuffer())
  })

  it('serves an image from the bucket with its type, no sniffing, caching and embedding allowed', async () => {
    const res = await fetch(server.url + jpegPath)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
  })

  it('answers byte ranges from the bucket with 206, and a range beyond the end with 416', async () => {
    const first = await fetch(server.url + jpegPath, { headers: { range: 'bytes=0-99' } })
    expect(first.status).toBe(206)
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`)
    expect(Buffer.from(await first.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true)

    const last = await fetch(server.url + jpegPath, { headers: { range: 'bytes=-10' } })
    expect(last.status).toBe(206)
    expect(last.headers.get('content-range')).toBe(`bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`)
    expect(Buffer.from(await last.arrayBuffer()).equals(bytes.subarray(-10))).toBe(true)

    const beyond = await fetch(server.url + jpegPath, { headers: { range: `bytes=${bytes.length}-` } })
    expect(beyond.status).toBe(416)
    expect(beyond.headers.get('content-range')).toBe(`bytes */${bytes.length}`)
  })

  it('answers a browser revalidating its copy with 304 and no body', async () => {
    const first = await fetch(server.url + jpegPath)
    const etag = first.headers.get('etag')!
    await first.arrayBuffer()
    const again = await fetch(server.url + jpegPath, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(await again.text()).toBe('')
  })

  it('answers a file missing from the bucket with 404', async () => {
    const res = await get(server, '/media/images/00000000-0000-4000-8000-000000000000-800.jpg')
    expect(res.status).toBe(404)
    await res.arrayBuffer()
  })
})

describe('S3 configuration', () => {
  it('refuses to start with a message naming each missing variable', async () => {
    const { S3_BUCKET: _bucket, S3_SECRET_ACCESS_KEY: _secret, ...incomplete } = s3Env(bucket)
    const failure = await startTestServer(incomplete).then(
      async (started) => {
        await started.stop()
        return 'started'
      },
      (error: Error) => error.message,
    )
    expect(failure).toContain('S3_BUCKET is required when STORAGE_DRIVER=s3')
    expect(failure).toContain('S3_SECRET_ACCESS_KEY is required when STORAGE_DRIVER=s3')
  })
})
