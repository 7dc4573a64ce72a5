import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { asFile, phonePhotoWithLocation } from '../fixtures/images'
import { signIn } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'
import { queryServerDatabase } from '../setup/server-database'

const first = await startTestServer()
let second: TestServer | undefined
afterAll(async () => {
  await second?.stop()
  await first.stop()
})

const uploadsDir = path.join(first.database.env.DATA_DIR, 'uploads')

/** Every stored file, as storage keys (`images/…`, `.partial/…`). */
function storedKeys(): string[] {
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
  const videos = await queryServerDatabase<{ video_key: string }>(server, 'select video_key from videos where video_key is not null')
  return [
    ...rows.flatMap((row) => (JSON.parse(row.variants) as { key: string }[]).map((v) => v.key)),
    ...videos.map((row) => row.video_key),
  ].sort()
}

it('removes the files a server killed mid-upload left without a row, once they are an hour old', async () => {
  const admin = await signIn(first)
  const before = storedKeys()
  const imageCount = () => storedKeys().filter((key) => key.startsWith('images/')).length
  const photo = await phonePhotoWithLocation(4000, 3000)
  const uploads = ['One', 'Two', 'Three'].map((title) => {
    const body = new FormData()
    body.set('title', `Cut off ${title}`)
    body.set('content', 'Text')
    body.set('image', asFile(photo, 'IMG_1.jpg'))
    return fetch(`${first.url}/admin/news/new`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: first.url, cookie: admin },
      body,
    }).catch(() => null)
  })
  // The first variant is in place: the others, and the row, are still to come.
  await expect.poll(() => imageCount() > before.length, { interval: 5, timeout: 15_000 }).toBe(true)
  first.process.kill('SIGKILL')
  await Promise.all(uploads)

  const left = storedKeys().filter((key) => key.startsWith('images/'))
  const referenced = await referencedKeys(first)
  expect(left.filter((key) => !referenced.includes(key)).length).toBeGreaterThan(0)

  // An hour later the site starts again.
  const anHourAgo = new Date(Date.now() - 61 * 60 * 1000)
  for (const key of storedKeys()) fs.utimesSync(path.join(uploadsDir, key), anHourAgo, anHourAgo)
  fs.mkdirSync(path.join(uploadsDir, '.partial'), { recursive: true })
  fs.writeFileSync(path.join(uploadsDir, '.partial', 'cut-short'), 'half a file')
  fs.utimesSync(path.join(uploadsDir, '.partial', 'cut-short'), anHourAgo, anHourAgo)
  second = await startTestServer({}, { sharedDatabase: first.database })

  const afterRestart = await referencedKeys(second)
  expect(storedKeys()).toEqual(afterRestart)
  // The demo articles' images are among them and still served.
  expect(afterRestart.length).toBeGreaterThanOrEqual(before.length)
  const feed = await (await fetch(`${second.url}/news/feed.xml`)).text()
  const image = feed.match(/url="[^"]+(\/media\/images\/[^"]+)"/)?.[1]
  expect((await fetch(`${second.url}${image}`)).status).toBe(200)
})
