import { spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { uploadAs } from '../../../tests/fixtures/finished-upload'
import { HTML_RENAMED_AS_JPEG, plainPng } from '../../../tests/fixtures/images'
import { allTags, ffprobe, GPS_LOCATION, makeVideo } from '../../../tests/fixtures/videos'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { createUser } from '~/modules/users/users.service.server'
import type { SessionUser } from '../auth.server'
import { db } from '../db.server'
import { newLeaseToken } from '../lease-holder.server'
import { env } from '../env.server'
import { MediaRejectedError } from './media-rejected'
import { UPLOAD_NOT_FOUND_MESSAGE, takeFinishedUpload, type FinishedUpload } from './uploads.server'
import { storage } from '../storage/index.server'
import { withMediaChange } from './media-change.server'
import { imageFiles, removeUnreferencedFiles } from './unreferenced-files.server'
import { FFMPEG_MISSING_TEXT, processDueVideos, VIDEO_POLICY, videoWorkIdle } from './video-conversion.server'
import { detectVideoFormat } from './video-files.server'
import {
  getVideosByIds,
  insertVideo,
  isVideoReady,
  PROCESSING_TEXT,
  removeVideo,
  videoFiles,
  type NewVideo,
  type VideoRecord,
} from './videos.server'

const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'video-fixtures-'))
const videos: Record<'phoneMov' | 'smallMp4' | 'smallWebm', Buffer> = {} as never
beforeAll(async () => {
  const [phoneMov, smallMp4, smallWebm] = await Promise.all([
    makeVideo(path.join(fixtures, 'phone.mov'), { container: 'mov', size: '1280x960', withLocation: true }),
    makeVideo(path.join(fixtures, 'small.mp4'), { container: 'mp4' }),
    makeVideo(path.join(fixtures, 'small.webm'), { container: 'webm', size: '64x48', seconds: 0.5 }),
  ])
  Object.assign(videos, {
    phoneMov: fs.readFileSync(phoneMov),
    smallMp4: fs.readFileSync(smallMp4),
    smallWebm: fs.readFileSync(smallWebm),
  })
  return () => fs.rmSync(fixtures, { recursive: true, force: true })
})

const tools = { FFMPEG_PATH: env.FFMPEG_PATH, FFPROBE_PATH: env.FFPROBE_PATH }
emptyUploadsBeforeEach()
let admin: SessionUser
beforeEach(async () => {
  admin = await createUser({ email: 'ada@example.org', name: 'Ada', role: 'admin', password: 'a long password' })
})
afterEach(async () => {
  await videoWorkIdle()
  Object.assign(env, tools)
})

const workDir = path.join(env.dataDir, 'video-work')
const uploadsDir = path.join(env.dataDir, 'uploads')

/** Uploads `bytes`, makes a video of it as a feature would, and returns the new video's id. */
async function addVideo(
  bytes: Buffer,
  filename: string,
  afterInsert?: (trx: typeof db, id: string) => Promise<void>,
): Promise<string> {
  const upload = await uploadAs(admin, bytes, filename)
  return takeAsVideo(upload, async (trx, video) => {
    await insertVideo(trx, video)
    await afterInsert?.(trx, video.id)
    return video.id
  })
}

/** Takes a finished upload as a new video, as a feature does, and records it with `save`. */
function takeAsVideo<T>(upload: FinishedUpload, save: (trx: typeof db, video: NewVideo) => Promise<T>): Promise<T> {
  return withMediaChange(async (media) => {
    const video = await media.stageVideo(await media.takeUpload(upload.id, admin))
    return media.transaction(db, (trx) => save(trx, video))
  })
}

async function videoById(id: string): Promise<VideoRecord> {
  return (await getVideosByIds([id])).get(id)!
}

function storedPath(src: string): string {
  return path.join(uploadsDir, src.replace(/^\/media\//, ''))
}

describe('video uploads', () => {
  it('recognises MP4, QuickTime and WebM by their first bytes, not their name', async () => {
    expect(detectVideoFormat(videos.smallMp4)).toBe('mp4')
    expect(detectVideoFormat(videos.phoneMov)).toBe('mov')
    expect(detectVideoFormat(videos.smallWebm)).toBe('webm')
    expect(detectVideoFormat(await plainPng(4, 4))).toBeNull()
    expect(detectVideoFormat(HTML_RENAMED_AS_JPEG)).toBeNull()
    expect(detectVideoFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    // AVIF shares the MP4 container but is a still image.
    expect(
      detectVideoFormat(
        await sharp(await plainPng(8, 8))
          .avif()
          .toBuffer(),
      ),
    ).toBeNull()
  })

  it.each([
    ['a PNG', () => plainPng(16, 16)],
    ['an HTML page', async () => HTML_RENAMED_AS_JPEG],
    ['an SVG', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['a truncated MP4', async () => videos.smallMp4.subarray(0, 6000)],
    ['an MP4 header on HTML', async () => Buffer.concat([videos.smallMp4.subarray(0, 32), HTML_RENAMED_AS_JPEG])],
  ])("refuses %s named clip.mp4 with the old site's message, keeping nothing", async (_label, bytes) => {
    const upload = await uploadAs(admin, await bytes(), 'clip.mp4')
    const adding = takeAsVideo(upload, insertVideo)
    await expect(adding).rejects.toThrow(MediaRejectedError)
    await expect(adding).rejects.toThrow('clip.mp4 is not a valid image or video type')
    expect(await db.selectFrom('videos').select('id').execute()).toEqual([])
    await expect(takeFinishedUpload(upload.id, admin)).rejects.toThrow(UPLOAD_NOT_FOUND_MESSAGE)
    expect(fs.existsSync(upload.path)).toBe(false)
  })

  it('converts a phone video to a 720p H.264/AAC MP4 that starts fast, without its location, with a poster', async () => {
    const input = await ffprobe(path.join(fixtures, 'phone.mov'))
    expect(allTags(input)).toContain(GPS_LOCATION)

    const id = await addVideo(videos.phoneMov, 'IMG_0042.MOV')
    await videoWorkIdle()

    const video = await videoById(id)
    expect(video).toMatchObject({ status: 'ready', statusText: null, width: 960, height: 720, contentType: 'video/mp4' })
    expect(isVideoReady(video)).toBe(true)
    expect(video.durationMs).toBeGreaterThan(900)
    expect(video.src).toMatch(/^\/media\/videos\/[0-9a-f-]{36}\.mp4$/)
    expect(video.poster).toMatchObject({ width: 960, height: 720 })
    expect(video.poster!.src).toMatch(/^\/media\/images\/.+\.jpg$/)

    const file = storedPath(video.src!)
    const output = await ffprobe(file)
    expect(output.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264'])
    expect(output.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 960, height: 720 })
    expect(allTags(output)).not.toMatch(/location|ISO6709|17\.1/i)
    // faststart: the index (moov) comes before the media data (mdat)
    const bytes = fs.readFileSync(file)
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'))
    // the original (with its location) is gone
    expect(fs.readdirSync(workDir)).toEqual([])

    expect(storedFiles().length).toBeGreaterThan(1)
    await withMediaChange((media) => media.transaction(db, (trx) => removeVideo(media, trx, id)))
    expect(storedFiles()).toEqual([])
    expect(await db.selectFrom('images').select('id').execute()).toEqual([])
    expect(await getVideosByIds([id])).toEqual(new Map())
  })

  it('shows its state to the admin while converting, and is not ready before its files are', async () => {
    const id = await addVideo(videos.smallWebm, 'clip.webm', async (trx, videoId) => {
      expect((await getVideosByIds([videoId], trx)).get(videoId)).toMatchObject({
        status: 'processing',
        statusText: PROCESSING_TEXT,
        src: null,
        poster: null,
      })
    })
    await videoWorkIdle()
    const ready = await videoById(id)
    expect(ready).toMatchObject({ status: 'ready', width: 64, height: 48, contentType: 'video/mp4' })
    expect(isVideoReady(ready)).toBe(true)
  })

  it('takes over a conversion whose worker died once its lease runs out', async () => {
    // Claimed by a worker that then crashed: its lease has 20 minutes to run.
    const id = await addVideo(videos.smallMp4, 'clip.mp4', async (trx, videoId) => {
      await trx
        .updateTable('videos')
        .set({
          leaseToken: 'crashed-worker',
          leaseExpiresAt: new Date(Date.now() + VIDEO_POLICY.leaseMs).toISOString(),
          attempts: 1,
        })
        .where('id', '=', videoId)
        .execute()
    })
    await videoWorkIdle()
    expect((await videoById(id)).status).toBe('processing')

    const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000)
    expect(await processDueVideos({ now: minutesFromNow(10) })).toMatchObject({ ready: 0 })
    expect(await processDueVideos({ now: minutesFromNow(21) })).toMatchObject({ ready: 1 })
    expect(await videoById(id)).toMatchObject({ status: 'ready', width: 160, height: 120 })
  })

  it('takes over at once a conversion whose process on this machine was killed, not one whose process runs', async () => {
    const killed = spawn('sleep', ['60'], { stdio: 'ignore' })
    const leaseOfKilled = newLeaseToken(killed.pid!)
    killed.kill('SIGKILL')
    await once(killed, 'exit')
    const claimedBy = (leaseToken: string) => async (trx: typeof db, videoId: string) => {
      const leaseExpiresAt = new Date(Date.now() + VIDEO_POLICY.leaseMs).toISOString()
      await trx.updateTable('videos').set({ leaseToken, leaseExpiresAt, attempts: 1 }).where('id', '=', videoId).execute()
    }
    const orphaned = await addVideo(videos.smallMp4, 'clip.mp4', claimedBy(leaseOfKilled))
    // Held by this very process, which is still running.
    const running = await addVideo(videos.smallMp4, 'clip.mp4', claimedBy(newLeaseToken()))
    await videoWorkIdle()

    expect(await videoById(orphaned)).toMatchObject({ status: 'ready', width: 160, height: 120 })
    expect((await videoById(running)).status).toBe('processing')
    await withMediaChange((media) => media.transaction(db, (trx) => removeVideo(media, trx, running)))
  })

  it('a deleted video waiting for conversion loses its private original after the commit, not before', async () => {
    const id = await addVideo(videos.smallMp4, 'clip.mp4', async (trx, videoId) => {
      // Claimed by another worker: it waits, with its original in the work folder.
      await trx
        .updateTable('videos')
        .set({ leaseToken: 'other-worker', leaseExpiresAt: new Date(Date.now() + VIDEO_POLICY.leaseMs).toISOString() })
        .where('id', '=', videoId)
        .execute()
    })
    await videoWorkIdle()
    expect(fs.readdirSync(workDir)).toEqual([`${id}.original.mp4`])

    const failing = withMediaChange((media) =>
      media.transaction(db, async (trx) => {
        await removeVideo(media, trx, id)
        throw new Error('the item could not be deleted')
      }),
    )
    await expect(failing).rejects.toThrow('the item could not be deleted')
    expect(fs.readdirSync(workDir)).toEqual([`${id}.original.mp4`])
    expect((await videoById(id)).status).toBe('processing')

    await withMediaChange((media) => media.transaction(db, (trx) => removeVideo(media, trx, id)))
    expect(fs.readdirSync(workDir)).toEqual([])
    expect(await getVideosByIds([id])).toEqual(new Map())
  })

  it('is known to the sweep of unreferenced files: a ready video keeps its file, a leftover goes', async () => {
    const id = await addVideo(videos.smallMp4, 'clip.mp4')
    await videoWorkIdle()
    const kept = (await videoById(id)).src!.replace(/^\/media\//, '')
    const leftover = 'videos/0b7e3a4c-0000-4000-8000-000000000009.mp4'
    await storage.put(leftover, Buffer.from('x'), { contentType: 'video/mp4' })
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000)
    for (const key of [kept, leftover]) fs.utimesSync(path.join(uploadsDir, key), twoHoursAgo, twoHoursAgo)

    expect(await removeUnreferencedFiles(storage, [imageFiles, videoFiles])).toMatchObject({ unreferenced: 1 })
    expect(fs.existsSync(path.join(uploadsDir, kept))).toBe(true)
    expect(fs.existsSync(path.join(uploadsDir, leftover))).toBe(false)
  })

  it('without ffmpeg, shows the original as uploaded with a neutral poster and tells the admin why', async () => {
    Object.assign(env, { FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' })
    const refused = await uploadAs(admin, await plainPng(16, 16), 'fake.mov')
    await expect(takeAsVideo(refused, insertVideo)).rejects.toThrow('fake.mov is not a valid image or video type')

    const id = await addVideo(videos.phoneMov, 'IMG_0042.MOV')
    await videoWorkIdle()
    const video = await videoById(id)
    expect(video).toMatchObject({ status: 'ready', statusText: FFMPEG_MISSING_TEXT, contentType: 'video/quicktime' })
    expect(isVideoReady(video)).toBe(true)
    expect(video.src).toMatch(/\.mov$/)
    expect(fs.readFileSync(storedPath(video.src!)).equals(videos.phoneMov)).toBe(true)
    // the neutral poster, at the poster preset's largest width
    expect(video.poster).toMatchObject({ width: 1280, height: 720 })
  })

  it('marks a video ffmpeg cannot convert as failed, with the reason for the admin', async () => {
    Object.assign(env, { FFMPEG_PATH: '/bin/false' })
    const id = await addVideo(videos.smallMp4, 'clip.mp4')
    await videoWorkIdle()
    const video = await videoById(id)
    expect(video.status).toBe('failed')
    expect(video.statusText).toMatch(/^The video could not be converted \(exited with status 1\)\./)
    expect(isVideoReady(video)).toBe(false)
    expect(storedFiles()).toEqual([])
    expect(fs.readdirSync(workDir)).toEqual([])
  })
})
