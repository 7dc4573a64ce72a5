/**
 * The site under a crowd. autocannon keeps the home page busy (as a shared post would) while, in
 * turn: someone floods the sign-in form with wrong passwords; an administrator uploads
 * pixel-flood images (tiny files that declare 50,000 × 50,000 pixels), one a second, then back
 * to back; an administrator uploads a 50 MB video in 5 MB chunks and a visitor sends the
 * contact form. The home page's rate in each
 * case is compared with its rate alone (the target: not below 0.5), and the upload and the
 * message must both succeed. Last, 5,000 subscribers are e-mailed an article (as fast as the
 * queue may go) while the home page is busy. `npm run bench:load`; BENCH_DURATION (seconds, default 10).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import SQLite from 'better-sqlite3'
import { IMAGE_DIMENSIONS_MESSAGE } from '../app/platform/media/image-presets'
import { UPLOAD_CHUNK_BYTES } from '../app/platform/media/upload-policy'
import { pixelFloodPng } from '../tests/fixtures/images'
import { MailCatcher } from '../tests/fixtures/mail-catcher'
import { makeLargeVideo } from '../tests/fixtures/videos'
import { ADMIN, get, post, signIn } from '../tests/setup/http-session'
import { uploadOverHttp } from '../tests/setup/tus-upload'
import { buildApp, startBenchServer } from './bench-server'
import { printTable } from './print-table'

const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = 50

interface Load {
  requestsPerSecond: number
  p99: number
  failed: number
}

async function hammerHome(url: string): Promise<Load> {
  const result = await autocannon({ url: `${url}/`, connections, duration, headers: { 'accept-encoding': 'gzip' } })
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
  }
}

/**
 * Runs `work` again and again, `pauseMs` apart, until `until` settles; returns how many times
 * it ran and what it answered.
 */
async function repeatDuring(until: Promise<unknown>, work: () => Promise<string>, pauseMs = 0): Promise<Map<string, number>> {
  let done = false
  void until.finally(() => (done = true))
  const answers = new Map<string, number>()
  while (!done) {
    const answer = await work()
    answers.set(answer, (answers.get(answer) ?? 0) + 1)
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
  return answers
}

function describe(answers: Map<string, number>): string {
  return [...answers].map(([answer, count]) => `${count} × ${answer}`).join(', ')
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-load-'))
buildApp()
console.log('Making a 50 MB video with ffmpeg …')
const video = fs.readFileSync(await makeLargeVideo(path.join(workDir, 'crowd.mp4'), 50))
const mail = new MailCatcher()
await mail.start()
// The e-mails to subscribers go out as fast as the queue allows: the hardest case for the pages.
const server = await startBenchServer({
  adminPassword: ADMIN.password,
  env: { SMTP_URL: mail.url, OUTGOING_EMAILS_PER_SECOND: '1000' },
})
try {
  console.log(`Server at ${server.url}; autocannon: ${connections} connections on /, ${duration} s each, gzip\n`)
  const admin = await signIn(server)
  const alone = await hammerHome(server.url)
  const rows: string[][] = [['alone', alone.requestsPerSecond.toFixed(0), '1.00', String(alone.p99), String(alone.failed), '']]
  const row = (name: string, load: Load, note: string) =>
    rows.push([
      name,
      load.requestsPerSecond.toFixed(0),
      (load.requestsPerSecond / alone.requestsPerSecond).toFixed(2),
      String(load.p99),
      String(load.failed),
      note,
    ])

  {
    const load = hammerHome(server.url)
    const answers = await repeatDuring(load, async () => {
      const response = await post(server, '/login', { email: ADMIN.email, password: 'not the password' })
      return String(response.status)
    })
    row('sign-in flood', await load, `sign-in answers: ${describe(answers)}`)
  }

  // A pixel-flood image is refused from its header, before any decoding: one every second, as
  // an administrator (or a script with their session) might send them; then back to back.
  for (const [name, pauseMs] of [
    ['a pixel-flood image every second', 1000],
    ['pixel-flood images back to back', 0],
  ] as const) {
    const load = hammerHome(server.url)
    const flood = pixelFloodPng()
    const answers = await repeatDuring(
      load,
      async () => {
        const id = await uploadOverHttp(server, admin, flood, 'flood.png', 'image/png')
        const fields = { intent: 'upload', files: id, title: 'Flood', description: 'A pixel flood', category: 'Events' }
        const form = await (await post(server, '/admin/photos', fields, admin)).text()
        return form.includes(IMAGE_DIMENSIONS_MESSAGE) ? 'refused: too many pixels' : 'not refused'
      },
      pauseMs,
    )
    row(name, await load, `uploads: ${describe(answers)}`)
  }

  {
    const load = hammerHome(server.url)
    const startedAt = performance.now()
    const id = await uploadOverHttp(server, admin, video, 'crowd.mp4', 'video/mp4', UPLOAD_CHUNK_BYTES)
    const saved = await post(
      server,
      '/admin/photos',
      { intent: 'upload', files: id, title: 'The crowd', description: 'Filmed in the crowd', category: 'Events' },
      admin,
    )
    const uploadSeconds = (performance.now() - startedAt) / 1000
    const name = `Crowded Visitor ${Date.now()}`
    const sent = await post(server, '/contact', {
      name,
      email: 'crowd@example.com',
      phone: '',
      subject: 'volunteer',
      message: 'Sent while the home page was busy.',
    })
    const result = await load
    const inbox = await (await get(server, '/admin/messages', admin)).text()
    const gallery = await (await get(server, '/admin/photos', admin)).text()
    const delivered = inbox.includes(name)
    const listed = saved.status === 302 && gallery.includes('The crowd')
    row(
      '50 MB video + contact form',
      result,
      `video saved: ${listed} (${uploadSeconds.toFixed(1)} s); message in the inbox: ${delivered} (status ${sent.status})`,
    )
    if (!listed || !delivered) process.exitCode = 1
  }

  {
    const SUBSCRIBERS = 5000
    const database = new SQLite(path.join(server.dataDir, 'site.db'))
    const now = new Date().toISOString()
    const insert = database.prepare(
      `insert into subscribers (id, email, first_name, topics, state, manage_secret, created_at, confirmed_at, updated_at)
       values (?, ?, '', 'news', 'confirmed', ?, ?, ?, ?)`,
    )
    database.transaction(() => {
      for (let i = 0; i < SUBSCRIBERS; i++) insert.run(`bench-${i}`, `reader${i}@example.org`, `bench-secret-${i}`, now, now, now)
    })()
    database.close()
    const before = mail.mails.length
    const posted = await post(
      server,
      '/admin/news/new',
      { title: 'For 5,000 readers', content: 'Hello.', emailSubscribers: 'on' },
      admin,
    )
    const result = await hammerHome(server.url)
    const sent = mail.mails.length - before
    row(
      `e-mailing ${SUBSCRIBERS} subscribers`,
      result,
      `article saved: ${posted.status === 302}; e-mails sent meanwhile: ${sent}`,
    )
    if (posted.status !== 302 || sent === 0) process.exitCode = 1
  }

  printTable(['while', 'home req/s', 'vs alone', 'p99 ms', 'failed', 'meanwhile'], rows)
  if (process.exitCode) console.error('\nThe upload or the message did not succeed under load.')
} finally {
  await server.stop()
  await mail.stop()
  fs.rmSync(workDir, { recursive: true, force: true })
}
