import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import type { S3StorageSettings } from '~/platform/storage/storage'

/** s3rver's fixed credentials: it checks request signatures against them. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface TestS3Server {
  endpoint: string
  /** How many HTTP requests the server has received so far. */
  requestCount(): number
  /** Creates an empty bucket through the S3 API and returns the storage settings for it. */
  createBucket(): Promise<S3StorageSettings>
  stop(): Promise<void>
}

/** A real S3-compatible server (s3rver) in this process, on a free port, storing into a temp folder. */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true })
  addMissingMultipartCalls(server)
  const { port } = await server.run()
  let requests = 0
  server.httpServer.on('request', () => requests++)
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS })
  return {
    endpoint,
    requestCount: () => requests,
    async createBucket() {
      const bucket = `site-${crypto.randomBytes(4).toString('hex')}`
      await client.send(new CreateBucketCommand({ Bucket: bucket }))
      return { endpoint, region: 'us-east-1', bucket, forcePathStyle: true, ...CREDENTIALS }
    },
    async stop() {
      client.destroy()
      server.httpServer.closeAllConnections()
      await server.close()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }
}

/** The same settings as environment variables, for a server or a script started as a child process. */
export function s3Env(settings: S3StorageSettings): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: settings.endpoint!,
    S3_REGION: settings.region,
    S3_BUCKET: settings.bucket,
    S3_ACCESS_KEY_ID: settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    S3_FORCE_PATH_STYLE: String(settings.forcePathStyle),
  }
}

type KoaContext = {
  method: string
  path: string
  query: Record<string, string | string[] | undefined>
  status: number
  body: unknown
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>
type S3rverInternals = {
  middleware: Middleware[]
  store: { getResourcePath(bucket: string, key: undefined, resource: string): string }
}

/**
 * s3rver 3.7.1 lacks two calls of S3's multipart uploads that resumable uploads in a bucket make
 * (@tus/s3-store): ListParts (GET /bucket/key?uploadId=...) and AbortMultipartUpload (DELETE
 * /bucket/key?uploadId=...); it answers both 405. They are answered here from s3rver's own files
 * of the upload (one file per part, beside its MD5), as S3 answers them, NoSuchUpload included.
 */
function addMissingMultipartCalls(server: S3rver): void {
  const internals = server as unknown as S3rverInternals
  const answer: Middleware = async (ctx, next) => {
    const [, bucket, ...keyParts] = ctx.path.split('/')
    const uploadId = ctx.query.uploadId
    if (typeof uploadId !== 'string' || !/^[0-9a-f]+$/.test(uploadId) || !bucket || keyParts.length === 0) return next()
    if (ctx.method !== 'GET' && ctx.method !== 'DELETE') return next()
    const uploadDir = path.join(internals.store.getResourcePath(bucket, undefined, 'uploads'), uploadId)
    if (!fs.existsSync(uploadDir)) {
      ctx.status = 404
      ctx.body = { Error: { Code: 'NoSuchUpload', Message: 'The specified upload does not exist.', UploadId: uploadId } }
      return
    }
    if (ctx.method === 'DELETE') {
      fs.rmSync(uploadDir, { recursive: true, force: true })
      ctx.status = 204
      return
    }
    const Part = fs
      .readdirSync(uploadDir)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b)
      .map((number) => {
        const file = path.join(uploadDir, String(number))
        const stats = fs.statSync(file)
        const md5 = fs.readFileSync(`${file}.md5`, 'utf8')
        return { PartNumber: number, ETag: `"${md5}"`, Size: stats.size, LastModified: stats.mtime.toISOString() }
      })
    ctx.body = {
      ListPartsResult: {
        Bucket: bucket,
        Key: decodeURIComponent(keyParts.join('/')),
        UploadId: uploadId,
        IsTruncated: false,
        Part,
      },
    }
  }
  // After the logger and the XML encoder, before s3rver's routes.
  internals.middleware.splice(2, 0, answer)
}
