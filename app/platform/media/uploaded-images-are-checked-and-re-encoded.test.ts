import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it, vi } from 'vitest'
import {
  asFile,
  elevenMegabyteJpeg,
  GPS_IFD_TAG,
  HTML_RENAMED_AS_JPEG,
  phonePhotoWithLocation,
  pixelFloodPng,
  plainPng,
} from '../../../tests/fixtures/images'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { db } from '../db.server'
import { storage } from '../storage/index.server'
import { detectImageType, storeImageFiles } from './image-pipeline.server'
import { IMAGE_DIMENSIONS_MESSAGE, INVALID_IMAGE_TYPE_MESSAGE } from './image-presets'
import { deleteImageRows, getImagesByIds, insertImage, pickSocialImage, toResponsiveImage } from './images.server'
import { MediaRejectedError } from './media-rejected'

const TOO_LARGE_MESSAGE = 'Image file is too large. Maximum size is 10MB.'
emptyUploadsBeforeEach()

async function readStored(key: string): Promise<Buffer> {
  const object = await storage.get(key)
  return Buffer.from(await new Response(object!.body).arrayBuffer())
}

async function expectRejected(upload: Promise<unknown>, message: string) {
  await expect(upload).rejects.toThrow(MediaRejectedError)
  await expect(upload).rejects.toThrow(message)
}

describe('the image pipeline', () => {
  it('recognises images by their first bytes, not their name', async () => {
    expect(detectImageType(await plainPng(2, 2))).toBe('png')
    expect(
      detectImageType(
        await sharp(await plainPng(2, 2))
          .jpeg()
          .toBuffer(),
      ),
    ).toBe('jpeg')
    expect(
      detectImageType(
        await sharp(await plainPng(2, 2))
          .webp()
          .toBuffer(),
      ),
    ).toBe('webp')
    expect(
      detectImageType(
        await sharp(await plainPng(2, 2))
          .gif()
          .toBuffer(),
      ),
    ).toBe('gif')
    expect(detectImageType(HTML_RENAMED_AS_JPEG)).toBeNull()
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
  })

  it('re-encodes a phone photo upright, in WebP and JPEG at several widths, without its location', async () => {
    const photo = await phonePhotoWithLocation(1600, 1000)
    expect((await sharp(photo).metadata()).exif?.includes(GPS_IFD_TAG)).toBe(true)

    const files = await storeImageFiles(asFile(photo, 'IMG_0001.jpg'), 'article')

    // Orientation 6 turns the 1600x1000 sensor image into a 1000x1600 portrait.
    expect({ width: files.width, height: files.height }).toEqual({ width: 1000, height: 1600 })
    expect(files.variants.map((v) => `${v.format}:${v.width}x${v.height}`).sort()).toEqual([
      'jpeg:1000x1600',
      'jpeg:400x640',
      'jpeg:800x1280',
      'webp:1000x1600',
      'webp:400x640',
      'webp:800x1280',
    ])
    for (const variant of files.variants) {
      expect(variant.key).toMatch(/^images\/[0-9a-f-]{36}-\d+\.(webp|jpg)$/)
      const bytes = await readStored(variant.key)
      expect(bytes.length).toBe(variant.bytes)
      const metadata = await sharp(bytes).metadata()
      expect(metadata.format).toBe(variant.format)
      expect(metadata.exif).toBeUndefined()
      expect(metadata.orientation).toBeUndefined()
      expect(bytes.includes(Buffer.from('PhoneCam'))).toBe(false)
    }
    // The red half (left on the sensor) is now on top.
    const jpeg = files.variants.find((v) => v.format === 'jpeg' && v.width === 400)!
    const { data } = await sharp(await readStored(jpeg.key))
      .raw()
      .toBuffer({ resolveWithObject: true })
    const top = [...data.subarray(0, 3)]
    expect(top[0]).toBeGreaterThan(200)
    expect(top[2]).toBeLessThan(60)
  })

  it('never enlarges a small image', async () => {
    const files = await storeImageFiles(asFile(await plainPng(300, 120), 'small.png', 'image/png'), 'article')
    expect(files.variants.map((v) => `${v.format}:${v.width}`).sort()).toEqual(['jpeg:300', 'webp:300'])
  })

  it('refuses an HTML page renamed to .jpg, and stores nothing', async () => {
    await expectRejected(storeImageFiles(asFile(HTML_RENAMED_AS_JPEG, 'photo.jpg'), 'article'), INVALID_IMAGE_TYPE_MESSAGE)
    expect(storedFiles()).toEqual([])
  })

  it('refuses a damaged image that only starts like one', async () => {
    const truncated = (await phonePhotoWithLocation(400, 300)).subarray(0, 200)
    await expectRejected(storeImageFiles(asFile(truncated, 'cut.jpg'), 'article'), INVALID_IMAGE_TYPE_MESSAGE)
    expect(storedFiles()).toEqual([])
  })

  it('refuses an 11 MB file with the size message, and stores nothing', async () => {
    await expectRejected(storeImageFiles(asFile(elevenMegabyteJpeg(), 'huge.jpg'), 'article'), TOO_LARGE_MESSAGE)
    expect(storedFiles()).toEqual([])
  })

  it('refuses a 50000 x 50000 pixel PNG header quickly, and stores nothing', async () => {
    const started = performance.now()
    await expectRejected(storeImageFiles(asFile(pixelFloodPng(), 'flood.png', 'image/png'), 'article'), IMAGE_DIMENSIONS_MESSAGE)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(storedFiles()).toEqual([])
  })

  it('records an image and deletes the record with its files', async () => {
    const files = await storeImageFiles(asFile(await plainPng(900, 600), 'a.png', 'image/png'), 'article')
    const image = await insertImage(db, files, 'Volunteers packing food')
    const found = (await getImagesByIds([image.id])).get(image.id)!
    expect(found).toMatchObject({ width: 900, height: 600, alt: 'Volunteers packing food' })
    expect(found.variants).toEqual(files.variants)

    const view = toResponsiveImage(found)
    expect(view.src).toMatch(/^\/media\/images\/.+-800\.jpg$/)
    expect(view.webpSrcSet).toMatch(/-400\.webp 400w, .+-800\.webp 800w, .+-900\.webp 900w$/)
    expect(pickSocialImage(found)).toMatchObject({ width: 900, height: 600 })
    const tiny = await storeImageFiles(asFile(await plainPng(120, 90), 't.png', 'image/png'), 'article')
    const tinyImage = (await getImagesByIds([(await insertImage(db, tiny, 'Tiny')).id])).values().next().value!
    expect(pickSocialImage(tinyImage)).toBeNull() // too small for a preview card: the default image is used

    const removed = await deleteImageRows(db, [image.id])
    expect((await getImagesByIds([image.id])).size).toBe(0)
    expect(removed.sort()).toEqual(files.variants.map((v) => v.key).sort())
  })

  it('scales a very tall screenshot to fit the preset instead of failing (WebP stops at 16,383 px)', async () => {
    const screenshot = await sharp({ create: { width: 1080, height: 17_000, channels: 3, background: '#dddddd' } })
      .png({ compressionLevel: 1 })
      .toBuffer()
    const files = await storeImageFiles(asFile(screenshot, 'Screenshot_scrolling.png', 'image/png'), 'article')
    expect({ width: files.width, height: files.height }).toEqual({ width: 508, height: 8000 })
    expect(files.variants.map((v) => `${v.format}:${v.width}x${v.height}`).sort()).toEqual([
      'jpeg:400x6299',
      'jpeg:508x8000',
      'webp:400x6299',
      'webp:508x8000',
    ])
  })

  it('crops product images square, from the largest square the photo holds', async () => {
    const files = await storeImageFiles(asFile(await plainPng(1300, 900), 'stall.png', 'image/png'), 'product')
    expect(files.variants.map((v) => `${v.format}:${v.width}x${v.height}`).sort()).toEqual([
      'jpeg:400x400',
      'jpeg:800x800',
      'webp:400x400',
      'webp:800x800',
    ])
    const small = await storeImageFiles(asFile(await plainPng(500, 300), 'small.png', 'image/png'), 'product')
    expect(small.variants.map((v) => `${v.format}:${v.width}x${v.height}`).sort()).toEqual(['jpeg:300x300', 'webp:300x300'])
  })

  it('reads an upload that finished on disk from its path', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-'))
    try {
      const file = path.join(dir, 'upload.bin')
      fs.writeFileSync(file, await phonePhotoWithLocation(1600, 1000))
      const files = await storeImageFiles({ path: file, size: fs.statSync(file).size, name: 'IMG_1.jpg' }, 'gallery')
      expect({ width: files.width, height: files.height }).toEqual({ width: 1000, height: 1600 })
      expect(storedFiles()).toHaveLength(files.variants.length)

      fs.writeFileSync(file, HTML_RENAMED_AS_JPEG)
      await expectRejected(
        storeImageFiles({ path: file, size: HTML_RENAMED_AS_JPEG.length }, 'gallery'),
        INVALID_IMAGE_TYPE_MESSAGE,
      )
      // The gallery's message names the file, as the old site's upload form did.
      await expectRejected(
        storeImageFiles({ path: file, size: 60 * 1024 * 1024, name: 'holiday.mov' }, 'gallery'),
        'holiday.mov is larger than 50MB',
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('waits for every variant before removing them when one cannot be stored, leaving no file', async () => {
    const put = storage.put.bind(storage)
    const writes: Promise<void>[] = []
    let calls = 0
    const spy = vi.spyOn(storage, 'put').mockImplementation((key, data, options) => {
      // The first write fails at once; the others are still on their way when it does.
      if (calls++ === 0) return Promise.reject(new Error('disk full'))
      const write = new Promise((resolve) => setTimeout(resolve, 100)).then(() => put(key, data, options))
      writes.push(write)
      return write
    })
    try {
      await expect(storeImageFiles(asFile(await plainPng(1300, 900), 'a.png', 'image/png'), 'article')).rejects.toThrow(
        'disk full',
      )
      // (Were it not waited for, the other five would still be written after the clean-up.)
      await vi.waitFor(() => expect(writes).toHaveLength(5))
      await Promise.allSettled(writes)
    } finally {
      spy.mockRestore()
    }
    expect(storedFiles()).toEqual([])
  })
})
