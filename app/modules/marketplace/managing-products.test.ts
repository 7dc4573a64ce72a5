import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { uploadAs } from '../../../tests/fixtures/finished-upload'
import {
  elevenMegabyteJpeg,
  GPS_IFD_TAG,
  HTML_RENAMED_AS_JPEG,
  phonePhotoWithLocation,
  plainPng,
} from '../../../tests/fixtures/images'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { createUser } from '~/modules/users/users.service.server'
import type { SessionUser } from '~/platform/auth.server'
import { db } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { takeFinishedUpload } from '~/platform/media/uploads.server'
import { storage } from '~/platform/storage/index.server'
import {
  getProductBySlug,
  getProductForEdit,
  listProducts,
  listProductsForAdmin,
  pickRandomProducts,
} from './marketplace.queries.server'
import { NAME_AND_DESCRIPTION_REQUIRED, PRODUCT_IMAGES_MAX, productSchema, type ProductInput } from './marketplace.schema'
import { createProduct, deleteProduct, ProductNotFoundError, updateProduct } from './marketplace.service.server'

emptyUploadsBeforeEach()
let manager: SessionUser
beforeEach(async () => {
  manager = await createUser({ email: 'mia@example.org', name: 'Mia Market', role: 'marketplace', password: 'a long password' })
})

const schema = productSchema('1268')

function product(values: Record<string, unknown> = {}): ProductInput {
  return schema.parse({
    name: 'Banana Bread',
    description: 'Baked on Fridays.',
    uploads: [],
    keepImages: [],
    removeImages: [],
    ...values,
  })
}

async function upload(colour: string, name = `${colour.slice(1)}.png`) {
  return (await uploadAs(manager, await plainPng(900, 600, colour), name, 'image/png')).id
}

/** The first variant URL of each image, to tell images apart. */
function imageUrls(images: readonly { src: string }[]) {
  return images.map((image) => image.src)
}

describe('adding a product', () => {
  it('keeps its details and images in the order chosen, cropped square and named by the product', async () => {
    const uploads = [await upload('#aa0000'), await upload('#00aa00')]
    const { slug } = await createProduct(
      product({
        uploads,
        price: '12.5',
        category: 'crafts',
        seller: 'Keisha',
        facebookLink: 'https://www.facebook.com/keishasbakes',
        whatsappNumber: '555 0134',
      }),
      manager,
    )
    const shown = await getProductBySlug(slug)
    expect(shown).toMatchObject({
      name: 'Banana Bread',
      priceCents: 1250,
      category: 'crafts',
      seller: 'Keisha',
      facebookLink: 'https://www.facebook.com/keishasbakes',
      instagramLink: '',
      // A local number gets the site's country code.
      whatsappNumber: '12685550134',
    })
    expect(shown!.images).toHaveLength(2)
    for (const image of shown!.images) expect(image).toMatchObject({ width: 600, height: 600, alt: 'Banana Bread' })
    expect(shown!.socialImage).toMatchObject({ width: 600, height: 600 })
    // Nothing about who added it.
    expect(JSON.stringify(shown)).not.toContain(manager.id)
    expect(JSON.stringify(shown)).not.toContain('Mia')
    // The uploads were taken over.
    for (const id of uploads) await expect(takeFinishedUpload(id, manager)).rejects.toThrow(MediaRejectedError)
    const [first] = await listProductsForAdmin()
    expect(first).toMatchObject({ slug, imageCount: 2 })
  })

  it('strips the location from a phone photo', async () => {
    const { id } = await uploadAs(manager, await phonePhotoWithLocation(), 'stall.jpg', 'image/jpeg')
    const { slug } = await createProduct(product({ uploads: [id] }), manager)
    const [image] = (await getProductBySlug(slug))!.images
    const file = await fetchStored(image.src)
    expect((await sharp(file).metadata()).exif?.includes(GPS_IFD_TAG) ?? false).toBe(false)
  })

  it('refuses a file that is no image, and keeps nothing of the product', async () => {
    const good = await upload('#0000aa')
    const { id: bad } = await uploadAs(manager, HTML_RENAMED_AS_JPEG, 'photo.jpg', 'image/jpeg')
    await expect(createProduct(product({ uploads: [good, bad] }), manager)).rejects.toThrow(MediaRejectedError)
    expect(await listProducts()).toEqual([])
    expect(storedFiles()).toEqual([])
  })

  it('refuses an image over 10 MB', async () => {
    const { id } = await uploadAs(manager, elevenMegabyteJpeg(), 'huge.jpg', 'image/jpeg')
    await expect(createProduct(product({ uploads: [id] }), manager)).rejects.toThrow(
      'Image file is too large. Maximum size is 10MB.',
    )
    expect(await listProducts()).toEqual([])
  })

  it('refuses more than 8 images', () => {
    const uploads = Array.from({ length: PRODUCT_IMAGES_MAX + 1 }, (_, i) => `upload-${i}`)
    expect(schema.safeParse({ name: 'x', description: 'y', uploads }).success).toBe(false)
  })

  it("refuses another person's upload", async () => {
    const other = await createUser({ email: 'ola@example.org', name: 'Ola', role: 'admin', password: 'a long password' })
    const { id } = await uploadAs(other, await plainPng(500, 500), 'a.png', 'image/png')
    await expect(createProduct(product({ uploads: [id] }), manager)).rejects.toThrow(MediaRejectedError)
    expect(await listProducts()).toEqual([])
  })
})

describe('the product form', () => {
  it("says the old site's message when the name or description is missing", () => {
    for (const values of [{ name: '' }, { description: '   ' }]) {
      const result = schema.safeParse({ name: 'Bread', description: 'Good', ...values })
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([NAME_AND_DESCRIPTION_REQUIRED])
    }
  })

  it('stores a price only when it is a number of at least zero', () => {
    expect(product({ price: '' }).price).toBeNull()
    expect(product({ price: '0' }).price).toBe(0)
    expect(product({ price: '7.99' }).price).toBe(799)
    for (const price of ['-1', 'free', '1e3'])
      expect(schema.safeParse({ name: 'x', description: 'y', price }).success).toBe(false)
  })

  it('accepts links to Facebook and Instagram only, and WhatsApp numbers of 8 to 15 digits', () => {
    expect(product({ instagramLink: 'https://instagram.com/brightthreads' }).instagramLink).toBe(
      'https://instagram.com/brightthreads',
    )
    expect(product({ whatsappNumber: '+1 (268) 555-0100' }).whatsappNumber).toBe('12685550100')
    for (const values of [
      { facebookLink: 'https://facebook.com.evil.example/page' },
      { facebookLink: 'javascript:alert(1)' },
      { instagramLink: 'https://www.facebook.com/page' },
      { whatsappNumber: '12345' },
      { whatsappNumber: '1234567890123456' },
    ]) {
      expect(schema.safeParse({ name: 'x', description: 'y', ...values }).success, JSON.stringify(values)).toBe(false)
    }
  })

  it('names a seller by a name only, never an e-mail address or phone number', () => {
    expect(product({ seller: 'Sweet Treats by Tia' }).seller).toBe('Sweet Treats by Tia')
    for (const seller of ['tia@example.org', 'Tia 268 555 0199']) {
      expect(schema.safeParse({ name: 'x', description: 'y', seller }).success, seller).toBe(false)
    }
  })
})

describe('finding products', () => {
  beforeEach(async () => {
    for (const values of [
      { name: 'Tie-dye T-shirt', description: 'Cotton, hand-dyed.', category: 'clothing' },
      { name: 'Beaded Bracelet', description: 'Glass beads, 100% handmade.', category: 'crafts' },
      { name: 'Soap', description: 'Lemongrass soap for the beach bag.', category: 'crafts' },
    ]) {
      await createProduct(product(values), manager)
      await new Promise((resolve) => setTimeout(resolve, 5)) // one after the other, not in the same millisecond
    }
  })

  it('by category, newest first', async () => {
    expect((await listProducts({ category: 'crafts', search: '' })).map((p) => p.name)).toEqual(['Soap', 'Beaded Bracelet'])
    expect((await listProducts({ category: 'general', search: '' })).map((p) => p.name)).toEqual([])
  })

  it('by words in the name or description, whatever their case', async () => {
    expect((await listProducts({ category: null, search: 'BEAD' })).map((p) => p.name)).toEqual(['Beaded Bracelet'])
    expect((await listProducts({ category: null, search: 'beach' })).map((p) => p.name)).toEqual(['Soap'])
    expect((await listProducts({ category: 'clothing', search: 'soap' })).map((p) => p.name)).toEqual([])
  })

  it('takes words only: % and _ are never wildcards, and alone find nothing', async () => {
    expect((await listProducts({ category: null, search: '100%' })).map((p) => p.name)).toEqual(['Beaded Bracelet'])
    expect(await listProducts({ category: null, search: '%' })).toEqual([])
    expect(await listProducts({ category: null, search: '_' })).toEqual([])
  })

  it('picks a few at random for the home page', async () => {
    const picked = await pickRandomProducts(2)
    expect(picked).toHaveLength(2)
    expect(new Set(picked.map((p) => p.slug)).size).toBe(2)
  })
})

describe('editing a product', () => {
  it('reorders, removes and adds images; the removed image\u2019s files go', async () => {
    const { slug } = await createProduct(
      product({ uploads: [await upload('#aa0000'), await upload('#00aa00'), await upload('#0000aa')] }),
      manager,
    )
    const before = (await getProductBySlug(slug))!
    const [red, green, blue] = (await getProductForEdit(before.id))!.images.map((image) => image.id)
    const filesBefore = storedFiles().length

    const added = await upload('#aaaa00')
    await updateProduct(
      before.id,
      product({ name: 'Rainbow Bread', keepImages: [blue, green, red], removeImages: [green], uploads: [added], price: '3' }),
      manager,
    )
    const after = (await getProductBySlug(slug))!
    expect(after).toMatchObject({ name: 'Rainbow Bread', priceCents: 300 })
    expect(imageUrls(after.images).slice(0, 2)).toEqual([before.images[2].src, before.images[0].src])
    expect(after.images).toHaveLength(3)
    expect(after.images.every((image) => image.alt === 'Rainbow Bread')).toBe(true)
    // One image out, one in: as many files as before.
    expect(storedFiles().length).toBe(filesBefore)
  })

  it('keeps at most 8 images', async () => {
    const { slug } = await createProduct(product({ uploads: [await upload('#111111')] }), manager)
    const { id, images } = (await getProductForEdit((await getProductBySlug(slug))!.id))!
    const uploads = []
    for (let i = 0; i < PRODUCT_IMAGES_MAX; i++) uploads.push(await upload(`#2222${String(i).padStart(2, '0')}`))
    const filesBefore = storedFiles()
    await expect(updateProduct(id, product({ keepImages: [images[0].id], uploads }), manager)).rejects.toThrow(
      'A product can have at most 8 images.',
    )
    expect(storedFiles()).toEqual(filesBefore)
    expect((await getProductBySlug(slug))!.images).toHaveLength(1)
  })

  it('says so when the product was deleted meanwhile', async () => {
    await expect(updateProduct('no-such-product', product(), manager)).rejects.toThrow(ProductNotFoundError)
  })
})

describe('deleting a product', () => {
  it('removes it with every file of its images', async () => {
    await createProduct(product({ name: 'Keep me', uploads: [await upload('#777777')] }), manager)
    const filesOfKept = storedFiles()
    const { slug } = await createProduct(product({ uploads: [await upload('#aa0000'), await upload('#00aa00')] }), manager)
    const { id } = (await getProductBySlug(slug))!
    await deleteProduct(id)
    expect(await getProductBySlug(slug)).toBeNull()
    expect(storedFiles()).toEqual(filesOfKept)
    expect(await db.selectFrom('productImages').selectAll().execute()).toHaveLength(1)
    // Deleting it again is no error.
    await deleteProduct(id)
  })
})

describe('a file that cannot be deleted', () => {
  it('is logged, and the product is deleted anyway', async () => {
    const { slug } = await createProduct(product({ uploads: [await upload('#aa0000')] }), manager)
    const { id } = (await getProductBySlug(slug))!
    // A folder where one of the image's files was: removing it fails for real.
    const [stuck, ...others] = storedFiles()
    const stuckPath = path.join(env.dataDir, 'uploads', 'images', stuck)
    fs.rmSync(stuckPath)
    fs.mkdirSync(stuckPath)
    fs.writeFileSync(path.join(stuckPath, 'inside'), 'x')
    const logged = vi.spyOn(logger, 'error')
    try {
      await deleteProduct(id)
      expect(await getProductBySlug(slug)).toBeNull()
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ key: `images/${stuck}` }), 'could not delete a stored file')
      // The other files went; the stuck one is left to the start-up sweep.
      for (const name of others) expect(storedFiles()).not.toContain(name)
    } finally {
      logged.mockRestore()
    }
  })
})

async function fetchStored(src: string): Promise<Buffer> {
  const key = src.replace(/^\/media\//, '')
  const chunks: Buffer[] = []
  for await (const chunk of (await storage.get(key))!.body) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}
