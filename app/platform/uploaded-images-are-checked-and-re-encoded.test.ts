import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  asFile,
  elevenMegabyteJpeg,
  GPS_IFD_TAG,
  HTML_RENAMED_AS_JPEG,
  phonePhotoWithLocation,
  pixelFloodPng,
  plainPng,
} from '../../tests/fixtures/images'
import { emptyUploadsBeforeEach, storedFiles } from '../../tests/setup/uploads'
import { db } from './db.server'
import {
  deleteImageRecord,
  detectImageType,
  getImagesByIds,
  IMAGE_DIMENSIONS_MESSAGE,
  ImageRejectedError,
  insertImage,
  INVALID_IMAGE_TYPE_MESSAGE,
  pickSocialImage,
  storeImageFiles,
  toResponsiveImage,
  withStoredImage,
} from './images.server'
import { storage } from './storage/index.server'

const limits = { maxBytes: 10 * 1024 * 1024, tooLargeMessage: 'Image file is too large. Maximum size is 10MB.' }
emptyUploadsBeforeEach()

async function readStored(key: string): Promise<Buffer> {
  const object = await storage.get(key)
  return Buffer.from(await new Response(object!.body).arrayBuffer())
}

async function expectRejected(upload: Promise<unknown>, message: string) {
  await expect(upload).rejects.toThrow(ImageRejectedError)
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

    const files = await storeImageFiles(asFile(photo, 'IMG_0001.jpg'), limits)

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
    const files = await storeImageFiles(asFile(await plainPng(300, 120), 'small.png', 'image/png'), limits)
    expect(files.variants.map((v) => `${v.format}:${v.width}`).sort()).toEqual(['jpeg:300', 'webp:300'])
  })

  it('refuses an HTML page renamed to .jpg, and stores nothing', async () => {
    await expectRejected(storeImageFiles(asFile(HTML_RENAMED_AS_JPEG, 'photo.jpg'), limits), INVALID_IMAGE_TYPE_MESSAGE)
    expect(storedFiles()).toEqual([])
  })

  it('refuses a damaged image that only starts like one', async () => {
    const truncated = (await phonePhotoWithLocation(400, 300)).subarray(0, 200)
    await expectRejected(storeImageFiles(asFile(truncated, 'cut.jpg'), limits), INVALID_IMAGE_TYPE_MESSAGE)
    expect(storedFiles()).toEqual([])
  })

  it('refuses an 11 MB file with the size message, and stores nothing', async () => {
    await expectRejected(storeImageFiles(asFile(elevenMegabyteJpeg(), 'huge.jpg'), limits), limits.tooLargeMessage)
    expect(storedFiles()).toEqual([])
  })

  it('refuses a 50000 x 50000 pixel PNG header quickly, and stores nothing', async () => {
    const started = performance.now()
    await expectRejected(
      storeImageFiles(asFile(pixelFloodPng(), 'flood.png', 'image/png'), limits),
      IMAGE_DIMENSIONS_MESSAGE,
    )
    expect(performance.now() - started).toBeLessThan(1000)
    expect(storedFiles()).toEqual([])
  })

  it('records an image and deletes the record with its files', async () => {
    const files = await storeImageFiles(asFile(await plainPng(900, 600), 'a.png', 'image/png'), limits)
    const image = await insertImage(db, files, 'Volunteers packing food')
    const found = (await getImagesByIds([image.id])).get(image.id)!
    expect(found).toMatchObject({ width: 900, height: 600, alt: 'Volunteers packing food' })
    expect(found.variants).toEqual(files.variants)

    const view = toResponsiveImage(found)
    expect(view.src).toMatch(/^\/media\/images\/.+-800\.jpg$/)
    expect(view.webpSrcSet).toMatch(/-400\.webp 400w, .+-800\.webp 800w, .+-900\.webp 900w$/)
    expect(pickSocialImage(found)).toMatchObject({ width: 900, height: 600 })
    const tiny = await storeImageFiles(asFile(await plainPng(120, 90), 't.png', 'image/png'), limits)
    const tinyImage = (await getImagesByIds([(await insertImage(db, tiny, 'Tiny')).id])).values().next().value!
    expect(pickSocialImage(tinyImage)).toBeNull() // too small for a preview card: the default image is used

    const removed = await deleteImageRecord(db, image.id)
    expect((await getImagesByIds([image.id])).size).toBe(0)
    expect(removed.map((v) => v.key).sort()).toEqual(files.variants.map((v) => v.key).sort())
  })

  it('removes the stored files again when saving the record fails', async () => {
    const upload = asFile(await plainPng(500, 500), 'a.png', 'image/png')
    const failing = withStoredImage(upload, limits, async (files) => {
      expect(storedFiles()).toHaveLength(files.variants.length)
      throw new Error('database unavailable')
    })
    await expect(failing).rejects.toThrow('database unavailable')
    expect(storedFiles()).toEqual([])
  })
})
