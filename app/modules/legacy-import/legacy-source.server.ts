/**
 * Where the old site's data is read from: its backend's REST API, or a folder with its exported
 * documents and files. Both answer the same two questions: the documents of a collection, and
 * the bytes of a file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { isSafeId, type FileRef } from './legacy-documents'

export interface LegacySource {
  /** For the output: where the data comes from (never the API key). */
  readonly description: string
  /** Every document of a collection, in the backend's order; null when the export has no such collection. */
  listDocuments(collection: string): Promise<unknown[] | null>
  /** Writes a file's bytes to `destination`; throws FileUnavailableError when it cannot be had. */
  downloadFile(file: FileRef, destination: string, maxBytes: number): Promise<void>
}

/** The old backend cannot be read at all (wrong key, database or collection): the import stops. */
export class LegacyBackendError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'LegacyBackendError'
  }
}

/** One file cannot be had: the record that needs it is skipped. */
export class FileUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FileUnavailableError'
  }
}

function fileName(file: FileRef): string {
  return file.bucket ? `${file.bucket}/${file.fileId}` : file.fileId
}

function tooLarge(file: FileRef, maxBytes: number): FileUnavailableError {
  return new FileUnavailableError(`file ${fileName(file)} is larger than ${Math.round(maxBytes / 1024 / 1024)}MB`)
}

// ---------------------------------------------------------------------------------------------
// A folder with the exported JSON documents and files.

/**
 * An exported folder: `<collection>.json` holds the collection's documents (a JSON list, or an
 * object with a `documents` list, as the REST API answers), and `files/<bucket>/<fileId>` or
 * `files/<fileId>` the bytes of each file.
 */
export function folderSource(dir: string): LegacySource {
  const root = path.resolve(dir)
  if (!fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new LegacyBackendError(`${dir} is not a folder`)

  async function findFile(file: FileRef): Promise<string | null> {
    const candidates: string[] = []
    if (file.bucket) candidates.push(path.join(root, 'files', file.bucket, file.fileId))
    candidates.push(path.join(root, 'files', file.fileId))
    if (!file.bucket) {
      // A bare file id (no URL): whichever bucket folder holds it.
      const folders = await fs.promises.readdir(path.join(root, 'files'), { withFileTypes: true }).catch(() => [])
      for (const folder of folders) if (folder.isDirectory()) candidates.push(path.join(root, 'files', folder.name, file.fileId))
    }
    for (const candidate of candidates) {
      if ((await fs.promises.stat(candidate).catch(() => null))?.isFile()) return candidate
    }
    return null
  }

  return {
    description: `the folder ${root}`,
    async listDocuments(collection) {
      const file = path.join(root, `${collection}.json`)
      let text: string
      try {
        text = await fs.promises.readFile(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch (error) {
        throw new LegacyBackendError(`${collection}.json is not JSON: ${(error as Error).message}`)
      }
      if (Array.isArray(parsed)) return parsed
      const documents = (parsed as { documents?: unknown } | null)?.documents
      if (Array.isArray(documents)) return documents
      throw new LegacyBackendError(`${collection}.json holds neither a list of documents nor { "documents": [...] }`)
    },
    async downloadFile(file, destination, maxBytes) {
      if (!isSafeId(file.fileId) || (file.bucket !== null && !isSafeId(file.bucket))) {
        throw new FileUnavailableError(`file ${fileName(file)} has an unusable id`)
      }
      const found = await findFile(file)
      if (!found) throw new FileUnavailableError(`file ${fileName(file)}: not in the export's files folder`)
      if ((await fs.promises.stat(found)).size > maxBytes) throw tooLarge(file, maxBytes)
      await fs.promises.copyFile(found, destination)
    },
  }
}

// ---------------------------------------------------------------------------------------------
// The old backend's REST API (Appwrite).

export interface RestSourceOptions {
  /** The API's base address, e.g. https://cloud.appwrite.io/v1. */
  endpoint: string
  project: string
  /** A server API key allowed to read the documents and files; sent only to `endpoint`. */
  key: string
  database: string
  /** The bucket of files that documents name by id only (their URLs carry their own bucket). */
  contentBucket?: string
  /** Documents per request (PAGE_SIZE). */
  pageSize?: number
}

/** Documents per request: the old site listed at most 100 at a time. */
export const PAGE_SIZE = 100
const REQUEST_TIMEOUT_MS = 60_000

/** What the old site said for each status (the old site's error catalogue). */
function statusMessage(status: number): string {
  switch (status) {
    case 401:
      return 'Authentication required'
    case 403:
      return 'Permission denied'
    case 404:
      return 'Database or collection not found'
    case 429:
      return 'Too many requests'
    default:
      return `the server answered ${status}`
  }
}

async function serverMessage(response: Response): Promise<string> {
  const body = await response.text().catch(() => '')
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message
    return typeof message === 'string' ? message.slice(0, 200) : ''
  } catch {
    return ''
  }
}

/**
 * The REST API of the old backend. Documents are listed with
 * `GET {endpoint}/databases/{database}/collections/{collection}/documents` and the queries
 * `{"method":"limit","values":[100]}` and `{"method":"offset","values":[n]}` (the JSON syntax of
 * current Appwrite), page after page until `total` documents came; files are read at
 * `{endpoint}/storage/buckets/{bucket}/files/{fileId}/view`. Every request carries
 * `X-Appwrite-Project` and `X-Appwrite-Key`.
 */
export function restSource(options: RestSourceOptions): LegacySource {
  let base: URL
  try {
    base = new URL(options.endpoint.replace(/\/+$/, ''))
  } catch {
    throw new LegacyBackendError(`the endpoint ${options.endpoint} is not a URL`)
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new LegacyBackendError('the endpoint must be an http(s) address')
  const root = base.href.replace(/\/+$/, '')
  const headers = {
    accept: 'application/json',
    'x-appwrite-project': options.project,
    'x-appwrite-key': options.key,
  }
  const segment = encodeURIComponent
  const pageSize = options.pageSize ?? PAGE_SIZE

  async function request(url: string): Promise<Response> {
    try {
      return await fetch(url, { headers, redirect: 'error', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new LegacyBackendError(
        `the old backend at ${root} cannot be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      )
    }
  }

  return {
    description: `${root} (project ${options.project}, database ${options.database})`,
    async listDocuments(collection) {
      const documents: unknown[] = []
      const address = `${root}/databases/${segment(options.database)}/collections/${segment(collection)}/documents`
      for (;;) {
        const query = new URLSearchParams()
        query.append('queries[]', JSON.stringify({ method: 'limit', values: [pageSize] }))
        query.append('queries[]', JSON.stringify({ method: 'offset', values: [documents.length] }))
        const response = await request(`${address}?${query}`)
        if (!response.ok) {
          const detail = await serverMessage(response)
          throw new LegacyBackendError(`listing ${collection}: ${statusMessage(response.status)}${detail ? ` (${detail})` : ''}`)
        }
        const page = (await response.json().catch(() => null)) as { total?: unknown; documents?: unknown } | null
        if (!page || !Array.isArray(page.documents) || typeof page.total !== 'number') {
          throw new LegacyBackendError(`listing ${collection}: the answer is not a list of documents`)
        }
        documents.push(...page.documents)
        if (page.documents.length === 0 || documents.length >= page.total) return documents
      }
    },
    async downloadFile(file, destination, maxBytes) {
      const bucket = file.bucket ?? options.contentBucket
      if (!bucket) {
        throw new FileUnavailableError(`file ${file.fileId} is named by its id only: give the bucket with --content-bucket`)
      }
      // Always from the configured endpoint: the stored URL may name the backend's public host,
      // and the key must go nowhere else.
      const url = `${root}/storage/buckets/${segment(bucket)}/files/${segment(file.fileId)}/view`
      let response: Response
      try {
        response = await request(url)
      } catch (error) {
        throw new FileUnavailableError(`file ${bucket}/${file.fileId}: ${(error as Error).message}`)
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel()
        const reason = response.status === 404 ? 'not found on the old backend (404)' : statusMessage(response.status)
        throw new FileUnavailableError(`file ${bucket}/${file.fileId}: ${reason}`)
      }
      if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
        await response.body.cancel()
        throw tooLarge({ bucket, fileId: file.fileId }, maxBytes)
      }
      let received = 0
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length
          done(received > maxBytes ? tooLarge({ bucket, fileId: file.fileId }, maxBytes) : null, chunk)
        },
      })
      try {
        await pipeline(
          Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
          limit,
          fs.createWriteStream(destination),
        )
      } catch (error) {
        await fs.promises.rm(destination, { force: true })
        if (error instanceof FileUnavailableError) throw error
        throw new FileUnavailableError(`file ${bucket}/${file.fileId}: the download broke off (${(error as Error).message})`)
      }
    },
  }
}
