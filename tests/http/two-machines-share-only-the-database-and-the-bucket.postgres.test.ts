import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ListObjectsCommand, S3Client } from '@aws-sdk/client-s3'
import { afterAll, expect, it } from 'vitest'
import { UPLOAD_CHUNK_BYTES } from '~/platform/media/upload-policy'
import { makeLargeVideo } from '../fixtures/videos'
import { get, post, signIn } from '../setup/http-session'
import { s3Env, startS3Server } from '../setup/s3-server'
import { startTestServer, type TestServer } from '../setup/server'
import { queryServerDatabase } from '../setup/server-database'

// Two processes as on two machines behind a load balancer: one PostgreSQL database and one S3
// bucket in common, and each its own DATA_DIR, as a container platform gives them.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'two-machines-'))
const dataDirs = ['machine-a', 'machine-b'].map((name) => fs.mkdtempSync(path.join(work, `${name}-`)))
/** ffmpeg reading its input at the video's own pace, so that a conversion lasts long enough to be cut off. */
const ffmpegAtPlaybackSpeed = path.join(work, 'ffmpeg-at-playback-speed')
fs.writeFileSync(ffmpegAtPlaybackSpeed, '#!/bin/sh\nexec ffmpeg -re "$@"\n', { mode: 0o755 })

const s3 = await startS3Server()
const bucket = await s3.createBucket()
const machineEnv = (index: number) => ({ ...s3Env(bucket), FFMPEG_PATH: ffmpegAtPlaybackSpeed, DATA_DIR: dataDirs[index] })
const first = await startTestServer(machineEnv(0))
const second = await startTestServer(machineEnv(1), { sharedDatabase: first.database })
const servers: TestServer[] = [first, second]
const restarted: TestServer[] = []
const client = new S3Client({
  endpoint: bucket.endpoint,
  region: bucket.region,
  forcePathStyle: true,
  credentials: { accessKeyId: bucket.accessKeyId, secretAccessKey: bucket.secretAccessKey },
})
afterAll(async () => {
  // The first server's database goes with it: it stops last.
  for (const server of [...restarted, second, first]) await server.stop()
  client.destroy()
  await s3.stop()
  fs.rmSync(work, { recursive: true, force: true })
})

/** Every file under a folder (empty folders are not files). */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
}

async function bucketKeys(): Promise<string[]> {
  const listed = await client.send(new ListObjectsCommand({ Bucket: bucket.bucket }))
  return (listed.Contents ?? []).map((object) => object.Key!)
}

/** The ffmpeg processes converting this video, with the DATA_DIR their command line names. */
function ffmpegsConverting(videoId: string): { pid: number; dataDir: string | undefined }[] {
  const found = []
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (cmdline.includes(`${videoId}.original`) && fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'ffmpeg') {
        found.push({ pid: Number(entry), dataDir: dataDirs.find((dir) => cmdline.includes(dir)) })
      }
    } catch {
      // It exited meanwhile.
    }
  }
  return found
}

function tus(server: TestServer, method: string, url: string, cookie: string, headers: Record<string, string>, body?: BodyInit) {
  return fetch(server.url + url, {
    method,
    redirect: 'manual',
    headers: { origin: server.url, cookie, 'tus-resumable': '1.0.0', ...headers },
    body,
  })
}

async function videoStatus(videoId: string): Promise<string> {
  const [row] = await queryServerDatabase<{ status: string }>(first, `select status from videos where id = '${videoId}'`)
  return row.status
}

it('take a 30 MB video in chunks sent to each in turn, and finish converting it when the converting one is killed', async () => {
  const admin = await signIn(first)
  const video = fs.readFileSync(await makeLargeVideo(path.join(work, 'large.mp4'), 30))
  expect(video.length).toBeGreaterThan(25 * 1024 * 1024)
  const metadata = `filename ${Buffer.from('large.mp4').toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`
  const created = await tus(first, 'POST', '/admin/uploads', admin, {
    'upload-length': String(video.length),
    'upload-metadata': metadata,
  })
  expect(created.status).toBe(201)
  const location = created.headers.get('location')!

  // The browser's chunks, each to the other process than the one before, as a load balancer without sticky sessions does.
  let offset = 0
  for (let i = 0; offset < video.length; i++) {
    const server = servers[(i + 1) % 2]
    const head = await tus(server, 'HEAD', location, admin, {})
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('upload-offset'))).toBe(offset)
    const chunk = new Uint8Array(video.subarray(offset, offset + UPLOAD_CHUNK_BYTES))
    const headers = { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }
    const sent = await tus(server, 'PATCH', location, admin, headers, chunk)
    expect(sent.status, `chunk ${i}`).toBe(204)
    offset = Number(sent.headers.get('upload-offset'))
  }
  expect(offset).toBe(video.length)
  // The upload is in the bucket, not on either machine.
  for (const dir of dataDirs) expect(filesUnder(dir)).toEqual([])

  const fields = {
    intent: 'upload',
    files: location.split('/').pop()!,
    title: 'Two Machines',
    description: 'A relay.',
    category: 'Events',
  }
  expect((await post(second, '/admin/photos', fields, admin)).status).toBe(302)
  const [{ id: videoId }] = await queryServerDatabase<{ id: string }>(
    first,
    "select videos.id from videos join media_items on media_items.video_id = videos.id where media_items.title = 'Two Machines'",
  )

  // Whichever process took the conversion converts a temporary copy in its own DATA_DIR; it is killed mid-way.
  await expect.poll(() => ffmpegsConverting(videoId).length, { timeout: 60_000 }).toBe(1)
  const [converting] = ffmpegsConverting(videoId)
  const killedIndex = dataDirs.indexOf(converting.dataDir!)
  expect(killedIndex).toBeGreaterThanOrEqual(0)
  const killed = servers[killedIndex]
  const survivor = servers[1 - killedIndex]
  killed.process.kill('SIGKILL')
  await expect
    .poll(() => ffmpegsConverting(videoId).find((ffmpeg) => ffmpeg.pid === converting.pid), { timeout: 8_000 })
    .toBe(undefined)
  expect(await videoStatus(videoId)).toBe('processing')

  // The other one takes the job over on its next pass (at most a minute) and converts from the bucket.
  await expect.poll(() => videoStatus(videoId), { interval: 500, timeout: 150_000 }).toBe('ready')
  const page = await (await get(survivor, '/photos/two-machines')).text()
  const mp4 = page.match(/<source src="([^"]+)" type="video\/mp4"/)![1]
  const fromSurvivor = await get(survivor, mp4)
  expect(fromSurvivor.status).toBe(200)
  const converted = Buffer.from(await fromSurvivor.arrayBuffer())
  expect(converted.subarray(4, 8).toString('latin1')).toBe('ftyp')

  // The killed machine comes back on its own DATA_DIR: what its conversion left there is swept, and it serves the same video.
  expect(filesUnder(dataDirs[killedIndex]).length).toBeGreaterThan(0)
  const back = await startTestServer(machineEnv(killedIndex), { sharedDatabase: first.database })
  restarted.push(back)
  expect(await (await get(back, '/photos/two-machines')).text()).toContain(mp4)
  const fromBack = await get(back, mp4)
  expect(fromBack.status).toBe(200)
  // Buffer.equals: a deep comparison of megabytes takes minutes.
  expect(Buffer.from(await fromBack.arrayBuffer()).equals(converted)).toBe(true)
  for (const dir of dataDirs) expect(filesUnder(dir)).toEqual([])

  // Nothing private is left in the bucket: the upload and the original went once the video was ready.
  expect((await bucketKeys()).filter((key) => !/^(images|videos)\//.test(key))).toEqual([])
}, 300_000)
