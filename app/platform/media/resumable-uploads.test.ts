import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createUser } from '~/modules/users/users.service.server'
import type { SessionUser } from '../auth.server'
import { db } from '../db.server'
import { env } from '../env.server'
import { MediaRejectedError } from './media-rejected'
import { UPLOAD_ENDPOINT } from './upload-policy'
import { discardUpload, handleUploadRequest, takeFinishedUpload, UPLOAD_NOT_FOUND_MESSAGE } from './uploads.server'
import { sweepAbandonedUploads } from './upload-sweeper.server'

const HOUR = 60 * 60_000
const tusDir = path.join(env.dataDir, 'tus')
beforeEach(() => {
  fs.rmSync(tusDir, { recursive: true, force: true })
  fs.mkdirSync(tusDir, { recursive: true })
})

function tusRequest(method: string, url: string, headers: Record<string, string> = {}, body?: Uint8Array) {
  return new Request(`http://site.test${url}`, {
    method,
    headers: { 'tus-resumable': '1.0.0', ...headers },
    body: body ? new Uint8Array(body) : undefined,
  })
}

async function anAdmin(email = 'ada@example.org'): Promise<SessionUser> {
  return createUser({ email, name: email, role: 'admin', password: 'a long password' })
}

/** Starts an upload as `user` and sends its first `sent` bytes; returns its id. */
async function startUpload(user: SessionUser, content: Buffer, sent = content.length, filename = 'clip.mp4') {
  const created = await handleUploadRequest(
    tusRequest('POST', UPLOAD_ENDPOINT, {
      'upload-length': String(content.length),
      'upload-metadata': `filename ${Buffer.from(filename).toString('base64')}`,
    }),
    user,
  )
  expect(created.status).toBe(201)
  const id = created.headers.get('location')!.split('/').pop()!
  if (sent > 0) {
    const patched = await handleUploadRequest(
      tusRequest(
        'PATCH',
        `${UPLOAD_ENDPOINT}/${id}`,
        { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        content.subarray(0, sent),
      ),
      user,
      id,
    )
    expect(patched.status).toBe(204)
  }
  return id
}

async function headStatus(user: SessionUser, id: string): Promise<number> {
  return (await handleUploadRequest(tusRequest('HEAD', `${UPLOAD_ENDPOINT}/${id}`), user, id)).status
}

describe('resumable uploads', () => {
  it('hands a finished upload to its owner only, with the name the browser gave', async () => {
    const [ada, ben] = [await anAdmin(), await anAdmin('ben@example.org')]
    const content = Buffer.from('a finished upload')
    const id = await startUpload(ada, content, content.length, '../../Holiday\u0000 clip.mp4')

    const upload = await takeFinishedUpload(id, ada)
    expect(upload).toMatchObject({ id, size: content.length, filename: 'Holiday clip.mp4' })
    expect(fs.readFileSync(upload.path).equals(content)).toBe(true)
    expect(path.dirname(upload.path)).toBe(tusDir)

    await expect(takeFinishedUpload(id, ben)).rejects.toThrow(UPLOAD_NOT_FOUND_MESSAGE)
    await expect(takeFinishedUpload('../site.db', ada)).rejects.toThrow(MediaRejectedError)

    await discardUpload(id)
    await expect(takeFinishedUpload(id, ada)).rejects.toThrow(UPLOAD_NOT_FOUND_MESSAGE)
    expect(fs.readdirSync(tusDir).filter((name) => name.startsWith(id))).toEqual([])
  })

  it('refuses an upload that has not finished', async () => {
    const ada = await anAdmin()
    const id = await startUpload(ada, Buffer.alloc(1000), 400)
    await expect(takeFinishedUpload(id, ada)).rejects.toThrow('clip.mp4 has not finished uploading.')
  })

  it('removes an unfinished upload and a file without an owner after an hour of silence, and an unused finished one after a day', async () => {
    const ada = await anAdmin()
    const unfinished = await startUpload(ada, Buffer.alloc(1000), 400)
    const finished = await startUpload(ada, Buffer.from('finished, the form not sent yet'))
    const orphan = path.join(tusDir, '0123456789abcdef0123456789abcdef')
    fs.writeFileSync(orphan, 'left by a crash')

    const later = (hours: number) => new Date(Date.now() + hours * HOUR)
    expect(await sweepAbandonedUploads(later(0.9))).toBe(0)
    expect(await headStatus(ada, unfinished)).toBe(200)
    expect(fs.existsSync(orphan)).toBe(true)

    expect(await sweepAbandonedUploads(later(1.1))).toBe(2)
    expect(await headStatus(ada, unfinished)).toBe(404)
    expect(fs.existsSync(orphan)).toBe(false)
    expect(await headStatus(ada, finished)).toBe(200)

    expect(await sweepAbandonedUploads(later(23))).toBe(0)
    expect(await sweepAbandonedUploads(later(25))).toBe(1)
    expect(await headStatus(ada, finished)).toBe(404)
    expect(fs.readdirSync(tusDir)).toEqual([])
  })

  it('keeps an upload that is still receiving chunks', async () => {
    const ada = await anAdmin()
    const content = Buffer.alloc(1000, 1)
    const id = await startUpload(ada, content, 400)
    // Started 50 minutes ago; a chunk arrives now, so it is not abandoned half an hour later.
    const earlier = new Date(Date.now() - 50 * 60_000).toISOString()
    await db.updateTable('uploads').set({ createdAt: earlier, updatedAt: earlier }).where('id', '=', id).execute()
    const chunk = await handleUploadRequest(
      tusRequest(
        'PATCH',
        `${UPLOAD_ENDPOINT}/${id}`,
        { 'upload-offset': '400', 'content-type': 'application/offset+octet-stream' },
        content.subarray(400, 600),
      ),
      ada,
      id,
    )
    expect(chunk.status).toBe(204)
    expect(await sweepAbandonedUploads(new Date(Date.now() + HOUR / 2))).toBe(0)
    expect(await headStatus(ada, id)).toBe(200)
  })
})
