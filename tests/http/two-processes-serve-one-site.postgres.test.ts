import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { MailCatcher } from '../fixtures/mail-catcher'
import { makeVideo } from '../fixtures/videos'
import { get, post, signIn } from '../setup/http-session'
import { s3Env, startS3Server } from '../setup/s3-server'
import { startTestServer, type TestServer } from '../setup/server'

// Two processes of one site, as behind a load balancer: one PostgreSQL database, one S3 bucket,
// one mail server, and one DATA_DIR on this machine, as the cluster has (separate DATA_DIRs:
// two-machines-share-only-the-database-and-the-bucket.postgres.test.ts).
const s3 = await startS3Server()
const mail = new MailCatcher()
await mail.start()
const shared = { ...s3Env(await s3.createBucket()), SMTP_URL: mail.url }
const first = await startTestServer(shared)
// sharedDatabase hands the second process the first one's DATABASE_URL and DATA_DIR.
const second = await startTestServer(shared, { sharedDatabase: first.database })
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'two-processes-'))
afterAll(async () => {
  await second.stop()
  await first.stop()
  await mail.stop()
  await s3.stop()
  fs.rmSync(workDir, { recursive: true, force: true })
})

const processes = [first, second]

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${first.output()}\n${second.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function tus(server: TestServer, method: string, url: string, cookie: string, headers: Record<string, string>, body?: BodyInit) {
  return fetch(server.url + url, {
    method,
    redirect: 'manual',
    headers: { origin: server.url, cookie, 'tus-resumable': '1.0.0', ...headers },
    body,
  })
}

describe('two processes on one database and one bucket', () => {
  it('share one DATA_DIR (the test setup does what a deployment on one machine does)', () => {
    expect(second.database.env).toEqual(first.database.env)
    expect(first.database.env.DATABASE_URL).toMatch(/^postgres:/)
  })

  it('accept a session made on one process on the other', async () => {
    const admin = await signIn(first)
    const page = await get(second, '/admin/settings', admin)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Organisation name')
    expect((await get(second, '/admin/settings')).status).toBe(302)
  })

  it('take a video in chunks sent to each process in turn, then convert and serve it from the bucket', async () => {
    const admin = await signIn(second)
    const video = fs.readFileSync(await makeVideo(path.join(workDir, 'clip.mp4'), { container: 'mp4', seconds: 2 }))
    const metadata = ['filename clip.mp4', 'filetype video/mp4']
      .map((field) => field.replace(/ (.+)$/, (_, value: string) => ' ' + Buffer.from(value).toString('base64')))
      .join(',')
    const created = await tus(first, 'POST', '/admin/uploads', admin, {
      'upload-length': String(video.length),
      'upload-metadata': metadata,
    })
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!

    const chunk = Math.ceil(video.length / 4)
    let offset = 0
    for (let i = 0; offset < video.length; i++) {
      const server = processes[(i + 1) % 2] // second, first, second, first
      // Each process first asks where the upload stands, as a resuming browser does.
      const head = await tus(server, 'HEAD', location, admin, {})
      expect(head.status).toBe(200)
      expect(Number(head.headers.get('upload-offset'))).toBe(offset)
      const sent = await tus(
        server,
        'PATCH',
        location,
        admin,
        { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        new Uint8Array(video.subarray(offset, offset + chunk)),
      )
      expect(sent.status, `chunk ${i} to process ${(i + 1) % 2}`).toBe(204)
      offset = Number(sent.headers.get('upload-offset'))
    }
    expect(offset).toBe(video.length)

    const saved = await post(
      first,
      '/admin/photos',
      {
        intent: 'upload',
        files: location.split('/').pop()!,
        title: 'Relay Race',
        description: 'Two processes',
        category: 'Events',
      },
      admin,
    )
    expect(saved.status).toBe(302)
    // Converted by whichever process claims it; shown by both.
    const page = await waitFor('the converted video', async () => {
      const html = await (await get(first, '/photos/relay-race')).text()
      return /<video[^>]*poster=/.test(html) ? html : undefined
    })
    const mp4 = page.match(/<source src="([^"]+)" type="video\/mp4"/)![1]
    const fromFirst = await get(first, mp4)
    const fromSecond = await get(second, mp4)
    expect(fromFirst.status).toBe(200)
    expect(fromSecond.status).toBe(200)
    expect(Buffer.from(await fromSecond.arrayBuffer())).toEqual(Buffer.from(await fromFirst.arrayBuffer()))
    expect(await (await get(second, '/photos/relay-race')).text()).toContain(mp4)
    expect(s3.requestCount()).toBeGreaterThan(0)
  })

  it('deliver each contact message exactly once, whichever process took it', async () => {
    const before = mail.mails.length
    const subjects: string[] = []
    for (let i = 0; i < 8; i++) {
      const server = processes[i % 2]
      const subject = `Question ${i} via ${i % 2 === 0 ? 'first' : 'second'}`
      subjects.push(subject)
      const sent = await fetch(`${server.url}/contact`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ name: `Visitor ${i}`, email: 'visitor@example.com', subject: 'donation', message: subject }),
      })
      expect(sent.status).toBe(303)
    }
    await waitFor('eight e-mails', () => mail.mails.length - before >= 8)
    // Both processes' delivery workers have had time for another pass: nothing is sent twice.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const received = mail.mails.slice(before).map((m) => subjects.find((s) => m.parsed.text?.includes(s)))
    expect(received.sort()).toEqual([...subjects].sort())
  })

  it('show a settings change made on one process on the other at once, cached page or not', async () => {
    const admin = await signIn(first)
    // The other process has the home page in memory.
    await get(second, '/')
    expect((await get(second, '/')).headers.get('x-page-cache')).toBe('hit')
    const saved = await post(
      first,
      '/admin/settings',
      { organisationName: 'Hearts Across Two Processes', email: 'info@example.org', timeZone: 'America/Antigua' },
      admin,
    )
    expect(saved.status).toBe(302)
    const home = await get(second, '/')
    expect(home.headers.get('x-page-cache')).toBe('miss')
    expect(await home.text()).toContain('Hearts Across Two Processes')
    expect(await (await get(first, '/about')).text()).toContain('Hearts Across Two Processes')
  })
})
