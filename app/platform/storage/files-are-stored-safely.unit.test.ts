import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createLocalDiskStorage } from './local-disk.server'
import { InvalidStorageKeyError, newStorageStem, type Storage } from './storage'

let root: string
let storage: Storage
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-test-'))
  storage = createLocalDiskStorage(root)
  return () => fs.rmSync(root, { recursive: true, force: true })
})

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return Buffer.from(await new Response(stream).arrayBuffer()).toString()
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
}

describe('local-disk storage', () => {
  it('stores a buffer under a generated key and gives it back with its size and type', async () => {
    const key = `${newStorageStem('images')}-800.webp`
    expect(key).toMatch(/^images\/[0-9a-f-]{36}-800\.webp$/)
    await storage.put(key, Buffer.from('hello world'), { contentType: 'image/webp' })
    const object = await storage.get(key)
    expect(object).toMatchObject({ size: 11, contentType: 'image/webp' })
    expect(await readAll(object!.body)).toBe('hello world')
    expect(await storage.stat(key)).toEqual({ size: 11, contentType: 'image/webp' })
    expect(storage.url(key)).toBe(`/media/${key}`)
  })

  it('reads a byte range and reports the whole size', async () => {
    const key = 'videos/clip.mp4'
    await storage.put(key, Readable.from([Buffer.from('0123456789')]), { contentType: 'video/mp4' })
    const object = await storage.get(key, { start: 2, end: 5 })
    expect(object?.size).toBe(10)
    expect(await readAll(object!.body)).toBe('2345')
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
    expect(await readAll((await storage.get(key))!.body)).toBe('first half second half')
    expect(filesUnder(partialDir)).toEqual([])
  })

  it('leaves nothing behind when the upload breaks off', async () => {
    const key = 'images/broken.jpg'
    const source = new PassThrough()
    const writing = storage.put(key, source, { contentType: 'image/jpeg' })
    source.write('some bytes')
    source.destroy(new Error('connection lost'))
    await expect(writing).rejects.toThrow('connection lost')
    expect(await storage.get(key)).toBeNull()
    expect(filesUnder(root)).toEqual([])
  })

  it.each([
    '../outside.jpg',
    'images/../../outside.jpg',
    '/etc/passwd.jpg',
    '%2e%2e/outside.jpg',
    'images\\..\\outside.jpg',
    '.partial/x.jpg',
    'images/page.html',
    'images/no-extension',
    '',
  ])('refuses the key %j for every operation', async (key) => {
    await expect(storage.put(key, Buffer.from('x'), { contentType: 'image/jpeg' })).rejects.toThrow(
      InvalidStorageKeyError,
    )
    await expect(storage.get(key)).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.stat(key)).rejects.toThrow(InvalidStorageKeyError)
    await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError)
    expect(() => storage.url(key)).toThrow(InvalidStorageKeyError)
    expect(fs.existsSync(path.join(root, '..', 'outside.jpg'))).toBe(false)
  })

  it('treats deleting a missing file as done', async () => {
    await expect(storage.delete('images/never-stored.webp')).resolves.toBeUndefined()
  })

  it('lists the objects under a prefix, never the partial writes', async () => {
    const image = `${newStorageStem('images')}-400.jpg`
    const video = `${newStorageStem('videos')}.mp4`
    await storage.put(image, Buffer.from('jpg'), { contentType: 'image/jpeg' })
    await storage.put(video, Buffer.from('mp4 bytes'), { contentType: 'video/mp4' })
    fs.writeFileSync(path.join(root, '.partial', 'leftover'), 'half')
    const listed = []
    for await (const object of storage.list('images/')) listed.push(object)
    expect(listed).toEqual([{ key: image, size: 3, lastModified: expect.any(Date) }])
    const all = []
    for await (const object of storage.list('')) all.push(object.key)
    expect(all.sort()).toEqual([image, video].sort())
  })
})
