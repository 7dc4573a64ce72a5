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
