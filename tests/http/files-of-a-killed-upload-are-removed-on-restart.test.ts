import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { asFile, phonePhotoWithLocation } from '../fixtures/images'
import { get, signIn } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'
import { queryServerDatabase } from '../setup/server-database'
import { uploadOverHttp } from '../setup/tus-upload'

// In the order they started: a server started again on another's database is stopped before it.
const servers: TestServer[] = []
afterAll(async () => {
  for (const server of servers.reverse()) await server.stop()
})

// Large enough that converting it takes a while after its first variant is stored.
const photo = await phonePhotoWithLocation(4000, 3000)

function uploadsDirOf(server: TestServer): string {
  return path.join(server.database.env.DATA_DIR, 'uploads')
}

/** Every stored file, as storage keys (`images/…`, `.partial/…`). */
function storedKeys(server: TestServer): string[] {
  const uploadsDir = uploadsDirOf(server)
  if (!fs.existsSync(uploadsDir)) return []
  return fs
    .readdirSync(uploadsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(uploadsDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
}

/** The keys rows refer to: images' variants and converted videos (the demo video is one). */
async function referencedKeys(server: TestServer): Promise<string[]> {
  const rows = await queryServerDatabase<{ variants: string }>(server, 'select variants from images')
  const videos = await queryServerDatabase<{ video_key: string }>(
    server,
    'select video_key from videos where video_key is not null',
  )
  return [
    ...rows.flatMap((row) => (JSON.parse(row.variants) as { key: string }[]).map((v) => v.key)),
    ...videos.map((row) => row.video_key),
  ].sort()
}

/** Images rows no article, gallery item, product, video poster or page hero uses. */
async function unusedImageIds(server: TestServer): Promise<string[]> {
  const rows = await queryServerDatabase<{ id: string }>(
    server,
    `select id from images where id not in (
       select image_id from articles where image_id is not null
       union select image_id from media_items where image_id is not null
       union select image_id from product_images
       union select poster_image_id from videos where poster_image_id is not null
       union select hero_image_id from page_sections where hero_image_id is not null)`,
  )
  return rows.map((row) => row.id)
}

/** Resumable uploads whose file is missing from the server's private tus folder. */
async function uploadsWithoutFile(server: TestServer): Promise<string[]> {
  const rows = await queryServerDatabase<{ id: string }>(server, 'select id from uploads')
  return rows.map((row) => row.id).filter((id) => !fs.existsSync(path.join(server.database.env.DATA_DIR, 'tus', id)))
}

/** A file as written to the end, not cut off: JPEG ends with its end marker, WebP's header gives its length. */
function isWhole(key: string, bytes: Buffer): boolean {
  if (key.endsWith('.jpg')) return bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9]))
  if (key.endsWith('.webp')) return bytes.readUInt32LE(4) === bytes.length - 8
  return bytes.length > 0
}

interface Form {
  path: string
  body: FormData | URLSearchParams
}

/** Posts a form as the browser sends it. */
function postForm(server: TestServer, cookie: string, { path, body }: Form): Promise<Response> {
  return fetch(server.url + path, { method: 'POST', redirect: 'manual', headers: { origin: server.url, cookie }, body })
}

/**
 * Starts a site, sends the forms `prepare` makes (converting large photos) and kills the server
 * with SIGKILL once the conversion of `killOnceBegun` images has stored a first variant (the
 * others, and the rows, are still to come). Returns the forms, the keys referenced before they
 * were sent and the killed server.
 */
async function killMidConversion(
  prepare: (server: TestServer, admin: string) => Promise<Form[]>,
  killOnceBegun = 1,
): Promise<{ forms: Form[]; referencedBefore: string[]; killed: TestServer }> {
  const first = await startTestServer()
  servers.push(first)
  const admin = await signIn(first)
  const forms = await prepare(first, admin)
  const referencedBefore = await referencedKeys(first)
  const before = new Set(storedKeys(first))
  // New images with a variant stored, by their keys' stem (`images/<uuid>-<width>.<ext>`).
  const imagesBegun = () =>
    new Set(
      storedKeys(first)
        .filter((key) => key.startsWith('images/') && !before.has(key))
        .map((key) => key.replace(/-\d+\.\w+$/, '')),
    ).size
  const sent = forms.map((form) => postForm(first, admin, form).catch(() => null))
  await expect.poll(() => imagesBegun() >= killOnceBegun, { interval: 5, timeout: 15_000 }).toBe(true)
  first.process.kill('SIGKILL')
  await Promise.all(sent)

  // Cut off in the middle: converted files that no row refers to yet.
  expect(unreferencedImages(await unreferencedKeys(first)).length).toBeGreaterThan(0)
  return { forms, referencedBefore, killed: first }
}

/** Stored files no row refers to. */
async function unreferencedKeys(server: TestServer): Promise<string[]> {
  const referenced = await referencedKeys(server)
  return storedKeys(server).filter((key) => !referenced.includes(key))
}

const unreferencedImages = (keys: string[]) => keys.filter((key) => key.startsWith('images/'))

/** Makes every stored file, and a write cut short, look an hour old. */
function ageStoredFilesByAnHour(server: TestServer) {
  const uploadsDir = uploadsDirOf(server)
  const anHourAgo = new Date(Date.now() - 61 * 60 * 1000)
  for (const key of storedKeys(server)) fs.utimesSync(path.join(uploadsDir, key), anHourAgo, anHourAgo)
  fs.mkdirSync(path.join(uploadsDir, '.partial'), { recursive: true })
  fs.writeFileSync(path.join(uploadsDir, '.partial', 'cut-short'), 'half a file')
  fs.utimesSync(path.join(uploadsDir, '.partial', 'cut-short'), anHourAgo, anHourAgo)
}

/** Kills a server as killMidConversion does and starts it again on the same database an hour later. */
async function killMidConversionAndRestart(
  prepare: (server: TestServer, admin: string) => Promise<Form[]>,
  killOnceBegun = 1,
): Promise<{ forms: Form[]; referencedBefore: string[]; restarted: TestServer }> {
  const { forms, referencedBefore, killed } = await killMidConversion(prepare, killOnceBegun)
  ageStoredFilesByAnHour(killed)
  const restarted = await startTestServer({}, { sharedDatabase: killed.database })
  servers.push(restarted)
  return { forms, referencedBefore, restarted }
}

/**
 * Every stored file has a row, every row's file is stored, whole and served, and no images row
 * is left without its record; what was there before the kill still is.
 */
async function expectNoOrphanOrDanglingFile(server: TestServer, referencedBefore: string[]) {
  const referenced = await referencedKeys(server)
  expect(storedKeys(server)).toEqual(referenced)
  expect(referenced).toEqual(expect.arrayContaining(referencedBefore))
  expect(await unusedImageIds(server)).toEqual([])
  expect(await uploadsWithoutFile(server)).toEqual([])
  for (const key of referenced) {
    const response = await get(server, `/media/${key}`)
    expect(response.status, key).toBe(200)
    expect(isWhole(key, Buffer.from(await response.arrayBuffer())), key).toBe(true)
  }
}

/** The public page answers, and so does every stored file it shows. */
async function expectPageAndItsImagesServed(server: TestServer, page: string): Promise<string> {
  const response = await get(server, page)
  expect(response.status, page).toBe(200)
  const html = await response.text()
  const images = [...new Set([...html.matchAll(/\/media\/images\/[^"'\s,?]+/g)].map((m) => m[0]))]
  expect(images.length, page).toBeGreaterThan(0)
  for (const image of images) expect((await get(server, image)).status, image).toBe(200)
  return html
}

/**
 * A form of several photos stores them one after the other, then records them all: once the
 * second has begun, the first is wholly stored and still no row may refer to it.
 */
const KILL_AFTER_FIRST_OF_SEVERAL = 2

/** Three finished resumable uploads of the large photo, by `cookie`'s user. */
function uploadPhotos(server: TestServer, cookie: string): Promise<string[]> {
  return Promise.all([1, 2, 3].map((n) => uploadOverHttp(server, cookie, photo, `IMG_${n}.jpg`, 'image/jpeg')))
}

it('removes the files a server killed mid-upload left without a row, once they are an hour old', async () => {
  const { referencedBefore, restarted } = await killMidConversionAndRestart(async () =>
    ['One', 'Two', 'Three'].map((title) => {
      const body = new FormData()
      body.set('title', `Cut off ${title}`)
      body.set('content', 'Text')
      body.set('image', asFile(photo, 'IMG_1.jpg'))
      return { path: '/admin/news/new', body }
    }),
  )
  await expectNoOrphanOrDanglingFile(restarted, referencedBefore)
  // The demo articles' images are among them and still served.
  const feed = await (await get(restarted, '/news/feed.xml')).text()
  const image = feed.match(/url="[^"]+(\/media\/images\/[^"]+)"/)?.[1]
  expect((await get(restarted, image!)).status).toBe(200)
})

it('removes them an hour later without another restart when the killed server was started again at once', async () => {
  const { referencedBefore, killed } = await killMidConversion(async () => {
    const body = new FormData()
    body.set('title', 'Cut off')
    body.set('content', 'Text')
    body.set('image', asFile(photo, 'IMG_1.jpg'))
    return [{ path: '/admin/news/new', body }]
  })
  const restarted = await startTestServer({ UNREFERENCED_FILES_SWEEP_SECONDS: '1' }, { sharedDatabase: killed.database })
  servers.push(restarted)
  // Too young at the start: they may belong to a change still under way in another process.
  expect(unreferencedImages(await unreferencedKeys(restarted)).length).toBeGreaterThan(0)

  ageStoredFilesByAnHour(restarted)
  await expect.poll(() => unreferencedKeys(restarted), { timeout: 15_000 }).toEqual([])
  await expectNoOrphanOrDanglingFile(restarted, referencedBefore)
})

it('leaves no gallery item or file behind when the server is killed converting uploaded photos', async () => {
  const { referencedBefore, restarted, forms } = await killMidConversionAndRestart(async (server, admin) => {
    const body = new URLSearchParams({ intent: 'upload', title: 'Cut off', description: 'Photos', category: 'Community' })
    for (const id of await uploadPhotos(server, admin)) body.append('files', id)
    return [{ path: '/admin/photos', body }]
  }, KILL_AFTER_FIRST_OF_SEVERAL)
  expect(await queryServerDatabase(restarted, "select id from media_items where title = 'Cut off'")).toEqual([])
  await expectNoOrphanOrDanglingFile(restarted, referencedBefore)
  expect(await expectPageAndItsImagesServed(restarted, '/photos')).not.toContain('Cut off')

  // The uploads were kept: sending the form again adds the photos.
  expect((await postForm(restarted, await signIn(restarted), forms[0])).status).toBe(302)
  expect(await expectPageAndItsImagesServed(restarted, '/photos')).toContain('Cut off')
})

it('leaves no product or image file behind when the server is killed converting its uploaded images', async () => {
  const { referencedBefore, restarted, forms } = await killMidConversionAndRestart(async (server, admin) => {
    const body = new URLSearchParams({ name: 'Cut off', description: 'Three photos.' })
    for (const id of await uploadPhotos(server, admin)) body.append('uploads', id)
    return [{ path: '/admin/products/new', body }]
  }, KILL_AFTER_FIRST_OF_SEVERAL)
  expect(await queryServerDatabase(restarted, "select id from products where name = 'Cut off'")).toEqual([])
  await expectNoOrphanOrDanglingFile(restarted, referencedBefore)
  expect(await expectPageAndItsImagesServed(restarted, '/marketplace')).not.toContain('Cut off')

  // The uploads were kept: sending the form again adds the product with its three images.
  expect((await postForm(restarted, await signIn(restarted), forms[0])).status).toBe(302)
  const product = await expectPageAndItsImagesServed(restarted, '/marketplace/cut-off')
  expect(product.match(/class="carousel-slide"/g)).toHaveLength(3)
})
