import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { makeVideo } from '../fixtures/videos'
import { get, post, signIn } from '../setup/http-session'
import { startTestServer, type TestServer } from '../setup/server'
import { queryServerDatabase } from '../setup/server-database'
import { uploadOverHttp } from '../setup/tus-upload'

// In the order they started: a server started again on another's database is stopped before it.
const servers: TestServer[] = []
afterAll(async () => {
  for (const server of servers.reverse()) await server.stop()
})

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'killed-conversion-'))
/** ffmpeg reading its input at the video's own pace: converting the clip takes as long as it plays. */
const ffmpegAtPlaybackSpeed = path.join(work, 'ffmpeg-at-playback-speed')
const CLIP_SECONDS = 20
let clip: Buffer
beforeAll(async () => {
  fs.writeFileSync(ffmpegAtPlaybackSpeed, '#!/bin/sh\nexec ffmpeg -re "$@"\n', { mode: 0o755 })
  clip = fs.readFileSync(await makeVideo(path.join(work, 'clip.mp4'), { container: 'mp4', seconds: CLIP_SECONDS }))
  return () => fs.rmSync(work, { recursive: true, force: true })
})

/** Running processes whose command line holds `text`, with their program's name, read from /proc. */
function processesNaming(text: string): { pid: number; program: string }[] {
  const found = []
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)) {
        found.push({ pid: Number(entry), program: fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() })
      }
    } catch {
      // It exited meanwhile.
    }
  }
  return found
}

/** The process's state and parent from /proc (a process stuck in D, or still with its parent, says why it is left). */
function stateOf(pid: number): string {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return status
      .split('\n')
      .filter((line) => /^(State|PPid):/.test(line))
      .join(', ')
  } catch {
    return 'gone'
  }
}

/**
 * Waits until `processes` finds none left of the killed server. Killing takes milliseconds; the
 * limit is for a machine busy with other tests, and ends before an unguarded ffmpeg would. If any
 * are left, the error shows their state and the server's output (a guard that could not start says so).
 */
async function untilNoneLeft(server: TestServer, processes: () => { pid: number; program: string }[]) {
  try {
    await expect.poll(processes, { timeout: 15_000 }).toEqual([])
  } catch (error) {
    const left = processes().map((found) => `${found.pid} ${found.program} (${stateOf(found.pid)})`)
    throw new Error(`Left after the server was killed: ${left.join('; ')}\nThe server's output:\n${server.output()}`, {
      cause: error,
    })
  }
}

/** The ffmpeg processes converting this video's original. */
function ffmpegsConverting(videoId: string) {
  return processesNaming(`${videoId}.original`).filter((process) => process.program === 'ffmpeg')
}

async function videoStatus(server: TestServer, videoId: string): Promise<string> {
  const [row] = await queryServerDatabase<{ status: string }>(server, `select status from videos where id = '${videoId}'`)
  return row.status
}

/** Starts a site whose ffmpeg converts at playback speed, and adds a video to the gallery; resolves once ffmpeg converts it. */
async function startConvertingAVideo(): Promise<{ server: TestServer; videoId: string }> {
  const server = await startTestServer({ FFMPEG_PATH: ffmpegAtPlaybackSpeed })
  servers.push(server)
  const admin = await signIn(server)
  const upload = await uploadOverHttp(server, admin, clip, 'clip.mp4', 'video/mp4')
  const fields = { intent: 'upload', files: upload, title: 'Cut off', description: 'A clip.', category: 'Community' }
  expect((await post(server, '/admin/photos', fields, admin)).status).toBe(302)
  const [{ id }] = await queryServerDatabase<{ id: string }>(
    server,
    "select videos.id from videos join media_items on media_items.video_id = videos.id where media_items.title = 'Cut off'",
  )
  await expect.poll(() => ffmpegsConverting(id).length, { timeout: 30_000 }).toBe(1)
  return { server, videoId: id }
}

it('takes its ffmpeg down with it when it is killed with SIGKILL mid-conversion', async () => {
  const { server, videoId } = await startConvertingAVideo()
  server.process.kill('SIGKILL')
  // Left alone, ffmpeg would go on for most of the clip's 20 seconds.
  await untilNoneLeft(server, () => processesNaming(server.database.env.DATA_DIR))
  expect(await videoStatus(server, videoId)).toBe('processing')
})

it('converts the video at once when it starts again, with one ffmpeg at a time', async () => {
  const { server: killed, videoId } = await startConvertingAVideo()
  killed.process.kill('SIGKILL')
  // Its ffmpeg goes with it (the test above); counted from then, two at once would be the new server's doing.
  await untilNoneLeft(killed, () => ffmpegsConverting(videoId))
  const restarted = await startTestServer({ FFMPEG_PATH: ffmpegAtPlaybackSpeed }, { sharedDatabase: killed.database })
  servers.push(restarted)

  // The killed server's lease has 20 minutes to run: the restarted one does not wait for it.
  let mostAtOnce = 0
  await expect
    .poll(
      async () => {
        mostAtOnce = Math.max(mostAtOnce, ffmpegsConverting(videoId).length)
        return videoStatus(restarted, videoId)
      },
      { interval: 100, timeout: (CLIP_SECONDS + 60) * 1000 },
    )
    .toBe('ready')
  expect(mostAtOnce).toBe(1)
  expect(await (await get(restarted, '/photos')).text()).toContain('Cut off')
}, 180_000)
