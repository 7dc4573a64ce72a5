import crypto from 'node:crypto'
import type { Lock, Server, Upload } from '@tus/server'
import type { SessionUser } from '../auth.server'
import { db, nowIso } from '../db.server'
import { logger } from '../logger.server'
import { removeTempFile } from '../temp-files.server'
import { MediaRejectedError } from './media-rejected'
import { databaseLocker } from './upload-locks.server'
import { admitUpload, UploadRefusedError } from './upload-quotas.server'
import { createUploadStore, type UploadStore } from './upload-stores.server'
import { UPLOAD_ENDPOINT, UPLOAD_MAX_BYTES, UPLOAD_REFUSED } from './upload-policy'

export const UPLOAD_POLICY = {
  /** An unfinished upload nobody has added to for this long is removed (and so is a file without an upload). */
  unfinishedKeptMs: 60 * 60_000,
  /** A finished upload no form has used is kept this long: the person may still be filling in the form. */
  finishedKeptMs: 24 * 60 * 60_000,
  sweepEveryMs: 10 * 60_000,
}

export const UPLOAD_NOT_FOUND_MESSAGE = 'The uploaded file was not found. Please choose it again.'
export const UPLOAD_BEING_SAVED_MESSAGE =
  'This file is already being saved by another request. Please wait a moment, then reload the page.'

/** A complete upload, ready for a feature to check and use. */
export interface FinishedUpload {
  id: string
  /** The file on local disk; the feature moves or copies it, then calls discardUpload. */
  path: string
  /** `path` is a copy of an upload kept in the bucket, removed by releaseFinishedUpload. */
  temporary: boolean
  size: number
  /** As the browser named it (cleaned): for messages only, never for storage keys. */
  filename: string
  /** As the browser declared it: not trusted, the content decides. */
  contentType: string
}

// Ids are made here (namingFunction below): 32 hex digits, nothing else is ever a path.
const UPLOAD_ID = /^[0-9a-f]{32}$/

export function isUploadId(id: unknown): id is string {
  return typeof id === 'string' && UPLOAD_ID.test(id)
}

/** A file name fit for a message: no folders, no control characters, not too long. */
function cleanFilename(name: string | null | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? ''
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f]+/g, '')
    .trim()
    .slice(0, 200)
  return cleaned || 'upload'
}

function cleanContentType(type: string | null | undefined): string {
  return type && /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type.slice(0, 100) : 'application/octet-stream'
}

// The signed-in user of a creation request, for the creation hook (tus passes the request on),
// and why the hook refused it, for the answer.
const creators = new WeakMap<Request, SessionUser>()
/** The lock each taken upload holds until it is released. */
const claims = new WeakMap<FinishedUpload, Lock>()
const refusals = new WeakMap<Request, UploadRefusedError>()

let uploadStore: Promise<UploadStore> | undefined
let tusServer: Promise<Server> | undefined

/** Where uploads are kept, loaded with the first upload rather than at every start. */
function store(): Promise<UploadStore> {
  uploadStore ??= createUploadStore()
  return uploadStore
}

function tus(): Promise<Server> {
  tusServer ??= createTusServer()
  return tusServer
}

async function createTusServer(): Promise<Server> {
  const [{ Server, ERRORS }, uploads] = await Promise.all([import('@tus/server'), store()])
  return new Server({
    path: UPLOAD_ENDPOINT,
    datastore: uploads.datastore,
    // Shared by every process on the database: the next chunk may reach another one.
    locker: databaseLocker({ timeout: ERRORS.ERR_LOCK_TIMEOUT }),
    maxSize: UPLOAD_MAX_BYTES,
    relativeLocation: true,
    // Same-origin only: no CORS headers at all.
    allowedOrigins: () => false,
    namingFunction: () => crypto.randomBytes(16).toString('hex'),
    getFileIdFromRequest: (_request, lastPath) => (isUploadId(lastPath) ? lastPath : undefined),
    async onUploadCreate(request, upload: Upload) {
      const user = creators.get(request as unknown as Request)
      if (!user) throw { status_code: 403, body: 'Not allowed\n' }
      const metadata = {
        filename: cleanFilename(upload.metadata?.filename),
        filetype: cleanContentType(upload.metadata?.filetype),
      }
      const size = upload.size ?? 0
      const freeBytes = await uploads.freeBytes()
      const now = new Date()
      try {
        // The row exists before the file, so every file has an owner the sweep can see.
        await db.transaction().execute(async (trx) => {
          await admitUpload(trx, { uploadId: upload.id, userId: user.id, size, freeBytes, now })
          await trx
            .insertInto('uploads')
            .values({
              id: upload.id,
              userId: user.id,
              filename: metadata.filename,
              contentType: metadata.filetype,
              size,
              received: 0,
              createdAt: now.toISOString(),
              updatedAt: now.toISOString(),
            })
            .execute()
        })
      } catch (error) {
        if (!(error instanceof UploadRefusedError)) throw error
        refusals.set(request as unknown as Request, error)
        throw { status_code: error.status, body: `${error.message}\n` } // answered by handleUploadRequest
      }
      return { metadata }
    },
    onResponseError(_request, error) {
      if (!(error instanceof Error)) return undefined // a protocol answer (404, 409, 413...) stays as it is
      logger.error({ err: error }, 'resumable upload failed')
      return { status_code: 500, body: 'The upload failed on the server.\n' }
    },
  })
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  const plainHeaders = { 'Content-Type': 'text/plain; charset=utf-8', 'Tus-Resumable': '1.0.0', ...headers }
  return new Response(`${text}\n`, { status, headers: plainHeaders })
}

/** Creates an upload, or says in plain words why not, before any byte is stored. */
async function createUpload(request: Request, user: SessionUser): Promise<Response> {
  const declared = request.headers.get('upload-length')
  // The size is declared up front, so the limits are checked before the first byte.
  if (declared === null) return plain(400, 'Upload-Length is required')
  if (Number(declared) > UPLOAD_MAX_BYTES) return plain(413, UPLOAD_REFUSED.tooLarge)
  creators.set(request, user)
  const response = await (await tus()).handleWeb(request)
  const refusal = refusals.get(request)
  if (refusal) {
    const retryAfter = refusal.retryAfterSeconds ? { 'Retry-After': String(refusal.retryAfterSeconds) } : undefined
    return plain(refusal.status, refusal.message, retryAfter)
  }
  const uploadId = response.headers.get('location')?.split('/').pop()
  // With the creation-with-upload extension, the first bytes come with the creation.
  if (response.status === 201 && isUploadId(uploadId)) await recordProgress(uploadId, response)
  return response
}

/** Keeps the row's count of bytes received in step with tus's offset; it only ever grows. */
async function recordProgress(uploadId: string, response: Response): Promise<void> {
  const offset = Number(response.headers.get('upload-offset') ?? NaN)
  if (!Number.isSafeInteger(offset)) return
  await db.updateTable('uploads').set({ received: offset }).where('id', '=', uploadId).where('received', '<', offset).execute()
}

/**
 * Answers a tus request of a signed-in user who may upload (the route checked the role, the
 * server the Origin). `uploadId` is the URL's last segment: absent when creating an upload.
 * Another user's upload is answered as if it did not exist.
 */
export async function handleUploadRequest(request: Request, user: SessionUser, uploadId?: string): Promise<Response> {
  // tus's discovery request: the protocol version, the largest size and the extensions.
  if (request.method === 'OPTIONS') return (await tus()).handleWeb(request)
  if (uploadId === undefined) {
    return request.method === 'POST' ? createUpload(request, user) : plain(405, 'Method not allowed')
  }
  if (!isUploadId(uploadId)) return plain(404, 'Upload not found')
  if (!['PATCH', 'HEAD', 'DELETE'].includes(request.method)) return plain(405, 'Method not allowed')
  const row = await db.selectFrom('uploads').select('userId').where('id', '=', uploadId).executeTakeFirst()
  if (!row || row.userId !== user.id) return plain(404, 'Upload not found')

  const response = await (await tus()).handleWeb(request)
  if (request.method === 'PATCH') {
    // Even a broken-off chunk is activity: the upload is not abandoned.
    await db.updateTable('uploads').set({ updatedAt: nowIso() }).where('id', '=', uploadId).execute()
    await recordProgress(uploadId, response)
  } else if (request.method === 'HEAD') {
    // Ends a count cut short by a crash after the last bytes were stored: the client asks, then calls it finished.
    await recordProgress(uploadId, response)
  } else if (request.method === 'DELETE' && response.status === 204) {
    await db.deleteFrom('uploads').where('id', '=', uploadId).execute()
  }
  return response
}

/**
 * The upload `uploadId` if it belongs to `user` and all its bytes have arrived; otherwise a
 * MediaRejectedError for the form. The upload stays until discardUpload, so a form that is sent
 * again (after a mistake in another field) can still use it.
 */
export async function takeFinishedUpload(uploadId: string, user: Pick<SessionUser, 'id'>): Promise<FinishedUpload> {
  if (!isUploadId(uploadId)) throw new MediaRejectedError(UPLOAD_NOT_FOUND_MESSAGE)
  const row = await db
    .selectFrom('uploads')
    .select(['filename', 'contentType', 'size'])
    .where('id', '=', uploadId)
    .where('userId', '=', user.id)
    .executeTakeFirst()
  if (!row) throw new MediaRejectedError(UPLOAD_NOT_FOUND_MESSAGE)
  // One request at a time takes an upload (a form sent twice at once): one copy, one record.
  const claim = databaseLocker({ timeout: new MediaRejectedError(UPLOAD_BEING_SAVED_MESSAGE) }).newLock(uploadId)
  await claim.lock(AbortSignal.abort(), () => {})
  try {
    const file = await (await store()).localFile(uploadId, row.size)
    if (file === 'missing') throw new MediaRejectedError(UPLOAD_NOT_FOUND_MESSAGE)
    if (file === 'unfinished') throw new MediaRejectedError(`${row.filename} has not finished uploading.`)
    const upload = { id: uploadId, ...file, size: row.size, filename: row.filename, contentType: row.contentType }
    claims.set(upload, claim)
    return upload
  } catch (error) {
    await claim.unlock()
    throw error
  }
}

/** Removes the local copy of a taken upload, if it is a copy, and lets go of it (the upload itself stays until discardUpload). */
export async function releaseFinishedUpload(upload: FinishedUpload): Promise<void> {
  if (upload.temporary) await removeTempFile(upload.path)
  await claims.get(upload)?.unlock()
}

/** Forgets an upload and removes what is left of its files (a feature may have moved the data away). */
export async function discardUpload(uploadId: string): Promise<void> {
  if (!isUploadId(uploadId)) return
  // Files first: if the bucket cannot be reached, the row stays and the next sweep tries again.
  await (await store()).remove(uploadId)
  await db.deleteFrom('uploads').where('id', '=', uploadId).execute()
}
