import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, inject, it } from 'vitest'
import { STORAGE_FULL_MESSAGE } from '~/platform/media/media-rejected'
import { UPLOAD_DISK_RESERVE_BYTES, UPLOAD_REFUSED } from '~/platform/media/upload-policy'
import { aMessage } from '../fixtures/contact-message'
import { asFile, phonePhotoWithLocation } from '../fixtures/images'
import { get, post, signIn } from '../setup/http-session'
import { startTestServer } from '../setup/server'
import { queryServerDatabase } from '../setup/server-database'
import { copyTestDatabase } from '../setup/test-database'

// The uploads folder on a disk of its own that fills up (a tmpfs), the database elsewhere.
if (process.getuid?.() !== 0) {
  throw new Error('This test mounts a small tmpfs as the uploads folder, which needs root: run the tests as root (CI does).')
}

const database = await copyTestDatabase({ env: inject('seededSite'), drop: async () => {} })
const uploads = path.join(database.env.DATA_DIR, 'uploads')
const demoFiles = path.join(database.env.DATA_DIR, 'demo-files')
fs.renameSync(uploads, demoFiles)
fs.mkdirSync(uploads)
execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', uploads])
fs.cpSync(demoFiles, uploads, { recursive: true })
const filler = path.join(uploads, 'filler')

// Resumable uploads on a disk of their own too, with 20 MB to spare beyond the room kept free.
const MB = 1024 * 1024
const tus = path.join(database.env.DATA_DIR, 'tus')
fs.mkdirSync(tus, { recursive: true })
execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${UPLOAD_DISK_RESERVE_BYTES / MB + 20}m`, 'tmpfs', tus])

/** Fills the disk but `bytes`. */
function leaveFree(bytes: number) {
  fs.rmSync(filler, { force: true })
  const { bavail, bsize } = fs.statfsSync(uploads)
  fs.writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - bytes)))
}

function storedFiles(): string[] {
  return fs
    .readdirSync(uploads, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'filler')
    .map((entry) => path.relative(uploads, path.join(entry.parentPath, entry.name)))
    .sort()
}

const server = await startTestServer({}, { sharedDatabase: database })
afterAll(async () => {
  await server.stop()
  execFileSync('umount', [uploads])
  execFileSync('umount', [tus])
  await database.drop()
})

async function postArticle(admin: string, title: string, photo: Buffer) {
  const body = new FormData()
  body.set('title', title)
  body.set('content', 'Text')
  body.set('image', asFile(photo, 'IMG_1.jpg'))
  return fetch(`${server.url}/admin/news/new`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, cookie: admin },
    body,
  })
}

it('refuses a photo with a clear message while the uploads disk is full, and keeps serving pages and taking messages', async () => {
  const admin = await signIn(server)
  const photo = await phonePhotoWithLocation(1600, 1000)
  const filesBefore = storedFiles()
  const articles = async () => (await queryServerDatabase<{ n: number }>(server, 'select count(*) as n from articles'))[0].n
  const articlesBefore = await articles()
  leaveFree(8 * 1024)

  const refused = await postArticle(admin, 'Disk Full Day', photo)
  expect(refused.status).toBe(507)
  const form = await refused.text()
  expect(form).toContain(STORAGE_FULL_MESSAGE)
  expect(form).toContain('value="Disk Full Day"')
  expect(await articles()).toBe(articlesBefore)
  expect(storedFiles()).toEqual(filesBefore)

  const home = await get(server, '/')
  expect(home.status).toBe(200)
  const image = (await home.text()).match(/src="(\/media\/images\/[^"]+)"/)![1]
  expect((await get(server, image)).status).toBe(200)
  const { phone, ...message } = aMessage()
  const sent = await post(server, '/contact', { ...message, phone: phone ?? '' })
  expect(sent.status).toBeLessThan(400)

  // Once there is room again, the same photo goes in.
  fs.rmSync(filler)
  expect((await postArticle(admin, 'Disk Full Day', photo)).status).toBe(302)
  expect(await articles()).toBe(articlesBefore + 1)
})

it('refuses a resumable upload the disk has no room for before it starts, counting what other uploads still have to send', async () => {
  const admin = await signIn(server)
  const create = (size: number) =>
    fetch(`${server.url}/admin/uploads`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, cookie: admin, 'tus-resumable': '1.0.0', 'upload-length': String(size) },
    })
  const first = await create(15 * MB)
  expect(first.status).toBe(201)
  const files = fs.readdirSync(tus)

  // 10 MB would fit on the disk as it is now, but not once the first upload has all arrived.
  const refused = await create(10 * MB)
  expect(refused.status).toBe(507)
  expect((await refused.text()).trim()).toBe(UPLOAD_REFUSED.diskFull)
  expect(fs.readdirSync(tus)).toEqual(files)

  const removed = await fetch(server.url + first.headers.get('location'), {
    method: 'DELETE',
    headers: { origin: server.url, cookie: admin, 'tus-resumable': '1.0.0' },
  })
  expect(removed.status).toBe(204)
  expect((await create(10 * MB)).status).toBe(201)
})
