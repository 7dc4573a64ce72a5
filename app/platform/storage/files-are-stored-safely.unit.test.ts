import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startS3Server } from '../../../tests/setup/s3-server'
import { createLocalDiskStorage } from './local-disk.server'
import { createS3Storage, S3_PART_SIZE } from './s3.server'
import { InvalidStorageKeyError, newStorageStem, type Storage } from './storage'

// A real S3-compatible server for the S3 driver; each test gets its own bucket.
const s3 = await startS3Server()
afterAll(() => s3.stop())

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer())
}

async function listKeys(storage: Storage, prefix: string): Promise<string[]> {
  const keys = []
  for await (const object of storage.list(prefix)) keys.push(object.key)
  return keys.sort()
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
}

interface Driver {
  storage: Storage
  /** Requests sent over the network so far (none for local disk). */
  requestCount(): number
  /** Removes what the test stored. */
  cleanUp(): void
}

const drivers: [string, () => Promise<Driver>][] = [
  [
    'local disk',
    async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'))
      return {
        storage: createLocalDiskStorage(root),
        requestCount: () => 0,
        cleanUp: () => fs.rmSync(root, { recursive: true, force: true }),
      }
    },
  ],
  [
    'S3',
    async () => {
      // Small listing pages, so that listing has to follow continuation tokens.
      const storage = createS3Storage(await s3.createBucket(), { listPageSize: 2 })
      // The bucket goes with the server's folder when the file is done.
      return { storage, requestCount: s3.requestCount, cleanUp: () => {} }
    },
  ],
]

describe.each(drivers)('storage on %s', (_name, createDriver) => {
  let driver: Driver
  let storage: Storage
  beforeEach(async () => {
    driver = await createDriver()
    storage = driver.storage
    return () => driver.cleanUp()
  })

  it('stores a buffer under a generated key and gives it back with its size and type', async () => {
    const key = `${newStorageStem('images')}-800.webp`
    expect(key).toMatch(/^images\/[0-9a-f-]{36}-800\.webp$/)
    await storage.put(key, Buffer.from('hello world'), { contentType: 'image/webp' })
    const object = await storage.get(key)
    expect(object).toMatchObject({ size: 11, contentType: 'image/webp' })
    expect((await readAll(object!.body)).toString()).toBe('hello world')
    expect(await storage.stat(key)).toEqual({ size: 11, contentType: 'image/webp' })
    expect(storage.url(key)).toBe(`/media/${key}`)
  })

  it('reads a byte range and reports the whole size', async () => {
    const key = 'videos/clip.mp4'
    await storage.put(key, Readable.from([Buffer.from('0123456789')]), { contentType: 'video/mp4' })
    const object = await storage.get(key, { start: 2, end: 5 })
    expect(object?.size).toBe(10)
    expect((await readAll(object!.body)).toString()).toBe('2345')
    const last = await storage.get(key, { start: 9, end: 9 })
    expect((await readAll(last!.body)).toString()).toBe('9')
  })

  it('stores a web stream and an empty file', async () => {
    await storage.put('images/from-web.png', new Blob(['web bytes']).stream(), { contentType: 'image/png' })
    expect((await readAll((await storage.get('images/from-web.png'))!.body)).toString()).toBe('web bytes')
    await storage.put('images/empty.png', Readable.from([]), { contentType: 'image/png' })
    expect(await storage.stat('images/empty.png')).toEqual({ size: 0, contentType: 'image/png' })
  })

  it('stores a stream of several upload parts byte for byte', async () => {
    const bytes = crypto.randomBytes(S3_PART_SIZE + 1024 * 1024 + 17)
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => bytes.subarray(i * 65536, (i + 1) * 65536))
    await storage.put('videos/long.mp4', Readable.from(chunks), { contentType: 'video/mp4' })
    const object = await storage.get('videos/long.mp4')
    expect(object?.size).toBe(bytes.length)
    expect((await readAll(object!.body)).equals(bytes)).toBe(true)
    const tail = await storage.get('videos/long.mp4', { start: bytes.length - 100, end: bytes.length - 1 })
    expect((await readAll(tail!.body)).equals(bytes.subarray(-100))).toBe(true)
  })

  it.each([
    ['after a few bytes', 10],
    ['after more than one upload part', S3_PART_SIZE + 65536],
  ])('leaves nothing readable when the upload breaks off %s', async (_when, sentBytes) => {
    const key = 'videos/broken.mp4'
    const source = new PassThrough()
    const writing = storage.put(key, source, { contentType: 'video/mp4' })
    // The driver has taken in what was sent (and started sending the parts it can) before the connection drops.
    if (!source.write(Buffer.alloc(sentBytes, 1))) await once(source, 'drain')
    source.destroy(new Error('connection lost'))
    await expect(writing).rejects.toThrow('connection lost')
    expect(await storage.get(key)).toBeNull()
    expect(await storage.stat(key)).toBeNull()
    expect(await listKeys(storage, '')).toEqual([])
  })

  it('answers a missing key with nothing, and treats deleting it as done', async () => {
    expect(await storage.get('images/never-stored.webp')).toBeNull()
    expect(await storage.get('images/never-stored.webp', { start: 0, end: 10 })).toBeNull()
    expect(await storage.stat('images/never-stored.webp')).toBeNull()
    await expect(storage.delete('images/never-stored.webp')).resolves.toBeUndefined()
  })

  it('deletes a stored file', async () => {
    await storage.put('images/gone.jpg', Buffer.from('jpg'), { contentType: 'image/jpeg' })
    await storage.delete('images/gone.jpg')
    expect(await storage.get('images/gone.jpg')).toBeNull()
    expect(await listKeys(storage, '')).toEqual([])
  })

  it.each([
    '../outside.jpg',
    'images/../../outside.jpg',
    '/etc/passwd.jpg',
    '%2e%2e/outside.jpg',
    'images\\..\\outside.jpg',
    '.partial/x.jpg',
    'Images/photo.jpg',
    'images/photo.JPG',
    'images/page.html',
    'images/photo.svg',
    'images/no-extension',
    '',
  ])('refuses the key %j for every operation, before any request', async (key) => {
    const requestsBefore = driver.requestCount()
    await expect(storage.put(key, Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.put(key, Readable.from(['x']), { contentType: 'image/jpeg' })).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.get(key)).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.stat(key)).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError)
    expect(() => storage.url(key)).toThrow(InvalidStorageKeyError)
    expect(driver.requestCount()).toBe(requestsBefore)
  })

  it('lists the objects under a prefix with their size and date', async () => {
    const images = [1, 2, 3].map((n) => `${newStorageStem('images')}-${n}00.jpg`)
    const video = `${newStorageStem('videos')}.mp4`
    for (const key of images) await storage.put(key, Buffer.from('jpg'), { contentType: 'image/jpeg' })
    await storage.put(video, Buffer.from('mp4 bytes'), { contentType: 'video/mp4' })

    const listed = []
    for await (const object of storage.list('images/')) listed.push(object)
    expect(listed.sort((a, b) => a.key.localeCompare(b.key))).toEqual(
      images.sort().map((key) => ({ key, size: 3, lastModified: expect.any(Date) })),
    )
    expect(await listKeys(storage, 'videos/')).toEqual([video])
    expect(await listKeys(storage, '')).toEqual([...images, video].sort())
    expect(await listKeys(storage, 'gallery/')).toEqual([])
  })
})

describe('storage on local disk, on the disk itself', () => {
  let root: string
  let storage: Storage
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'))
    storage = createLocalDiskStorage(root)
    return () => fs.rmSync(root, { recursive: true, force: true })
  })

  it('writes to a temporary name and only then makes the file visible under its key', async () => {
    const key = 'images/slow.jpg'
    const source = new PassThrough()
    const writing = storage.put(key, source, { contentType: 'image/jpeg' })
    source.write('first half ')
    const partialDir = path.join(root, '.partial')
    await vi.waitFor(() => {
      const [partial] = filesUnder(partialDir)
      expect(fs.readFileSync(path.join(partialDir, partial), 'utf8')).toBe('first half ')
    })
    expect(await storage.get(key)).toBeNull()
    source.end('second half')
    await writing
    expect((await readAll((await storage.get(key))!.body)).toString()).toBe('first half second half')
    expect(filesUnder(partialDir)).toEqual([])
  })

  it('leaves no file behind when the upload breaks off', async () => {
    const source = new PassThrough()
    const writing = storage.put('images/broken.jpg', source, { contentType: 'image/jpeg' })
    source.write('some bytes')
    source.destroy(new Error('connection lost'))
    await expect(writing).rejects.toThrow('connection lost')
    expect(filesUnder(root)).toEqual([])
  })

  it('never writes outside its folder for a key with ../', async () => {
    await expect(storage.put('../outside.jpg', Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow(
      InvalidStorageKeyError,
    )
    expect(fs.existsSync(path.join(root, '..', 'outside.jpg'))).toBe(false)
  })

  it('never lists the partial writes', async () => {
    await storage.put('images/done.jpg', Buffer.from('jpg'), { contentType: 'image/jpeg' })
    fs.writeFileSync(path.join(root, '.partial', 'leftover'), 'half')
    const all = []
    for await (const object of storage.list('')) all.push(object.key)
    expect(all).toEqual(['images/done.jpg'])
  })
})
