import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, inject, it } from 'vitest'
import { STORAGE_FULL_MESSAGE } from '~/platform/media/media-rejected'
import { UPLOAD_DISK_RESERVE_BYTES } from '~/platform/media/upload-policy'
import { UPLOAD_BEING_SAVED_MESSAGE, UPLOAD_NOT_FOUND_MESSAGE } from '~/platform/media/uploads.server'
import { plainPng } from '../fixtures/images'
import { post, signIn } from '../setup/http-session'
import { s3Env, startS3Server } from '../setup/s3-server'
import { startTestServer } from '../setup/server'
import { queryServerDatabase } from '../setup/server-database'
import { copyTestDatabase } from '../setup/test-database'
import { uploadOverHttp } from '../setup/tus-upload'

// With STORAGE_DRIVER=s3 a finished upload is copied from the bucket to local disk to be checked:
// that copy must neither fill the disk nor be made twice by a form sent twice at once.
if (process.getuid?.() !== 0) {
  throw new Error(
    'This test mounts a small tmpfs as the temporary files folder, which needs root: run the tests as root (CI does).',
  )
}
const MB = 1024 * 1024
const s3 = await startS3Server()
const bucket = await s3.createBucket()
const database = await copyTestDatabase({ env: inject('seededSite'), drop: async () => {} })
// Room for 20 MB of copies beyond the space always kept free.
const temporary = path.join(database.env.DATA_DIR, 'tmp')
fs.mkdirSync(temporary, { recursive: true })
execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${UPLOAD_DISK_RESERVE_BYTES / MB + 20}m`, 'tmpfs', temporary])
const server = await startTestServer(s3Env(bucket), { sharedDatabase: database })
afterAll(async () => {
  await server.stop()
  execFileSync('umount', [temporary])
  await database.drop()
  await s3.stop()
})
const admin = await signIn(server)

const temporaryFiles = () => fs.readdirSync(temporary, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
const photosTitled = async (title: string) =>
  (await queryServerDatabase(server, `select id from media_items where title = '${title}'`)).length

function addPhotos(files: string, title: string): Promise<Response> {
  return post(server, '/admin/photos', { intent: 'upload', files, title, description: 'A moment.', category: 'Community' }, admin)
}

it('refuses a file whose copy would fill the disk, and keeps the upload for when there is room', async () => {
  const large = await uploadOverHttp(server, admin, crypto.randomBytes(24 * MB), 'large.png', 'image/png', 8 * MB)
  const refused = await addPhotos(large, 'Too large for the disk')
  expect(refused.status).toBe(507)
  expect(await refused.text()).toContain(STORAGE_FULL_MESSAGE.replaceAll("'", '&#x27;'))
  expect(await photosTitled('Too large for the disk')).toBe(0)
  expect(temporaryFiles()).toEqual([])
  expect(await queryServerDatabase(server, `select id from uploads where id = '${large}'`)).toHaveLength(1)

  // A photo that fits is taken as usual.
  const small = await uploadOverHttp(server, admin, await plainPng(640, 480), 'small.png', 'image/png')
  expect((await addPhotos(small, 'Fits on the disk')).status).toBe(302)
  expect(await photosTitled('Fits on the disk')).toBe(1)
  expect(temporaryFiles()).toEqual([])
})

it('takes an upload once when its form is sent twice at the same moment', async () => {
  const files = await uploadOverHttp(server, admin, await plainPng(1600, 1200), 'twice.png', 'image/png')
  const answers = await Promise.all([addPhotos(files, 'Sent twice'), addPhotos(files, 'Sent twice')])
  expect(answers.map((answer) => answer.status).sort()).toEqual([302, 400])
  const refusal = await answers.find((answer) => answer.status === 400)!.text()
  expect(
    [UPLOAD_BEING_SAVED_MESSAGE, UPLOAD_NOT_FOUND_MESSAGE].some((message) => refusal.includes(message)),
    'the second form is told why',
  ).toBe(true)
  expect(await photosTitled('Sent twice')).toBe(1)
  expect(temporaryFiles()).toEqual([])
})
