import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { DataStore, KvStore } from '@tus/server'
import type { MetadataValue } from '@tus/s3-store'
import { env } from '../env.server'
import { s3ClientConfig } from '../storage/s3-client-config'
import { removeTempFile, tempFile, tempFreeBytes } from '../temp-files.server'
import { MediaRejectedError, STORAGE_FULL_MESSAGE } from './media-rejected'
import { UPLOAD_DISK_RESERVE_BYTES } from './upload-policy'

/**
 * Where unfinished uploads live: on local disk (STORAGE_DRIVER=file), or as multipart uploads in
 * the S3 bucket (STORAGE_DRIVER=s3), where every process sharing the bucket can take any chunk and
 * read any finished upload.
 */
export interface UploadStore {
  datastore: DataStore
  /** Free bytes where uploads are kept, for the disk quota; a bucket has no such limit. */
  freeBytes(): Promise<number>
  /**
   * The upload as a file on local disk: the stored file itself, or a temporary copy for the caller
   * to remove with `releaseLocalFile`. 'missing' if there is none, 'unfinished' if bytes are missing.
   */
  localFile(id: string, size: number): Promise<{ path: string; temporary: boolean } | 'missing' | 'unfinished'>
  /** Removes what is stored of an upload; a missing upload is not an error. */
  remove(id: string): Promise<void>
}

/** Partial uploads on local disk live here, outside the public uploads folder. */
export function uploadsDir(): string {
  return path.join(env.dataDir, 'tus')
}

// What OPTIONS announces: a deferred length is refused, and expiry is our sweep's, without Upload-Expires.
const EXTENSIONS = ['creation', 'creation-with-upload', 'termination']

export async function createUploadStore(): Promise<UploadStore> {
  return env.s3 ? createBucketUploadStore(env.s3) : createDiskUploadStore()
}

async function createDiskUploadStore(): Promise<UploadStore> {
  const { FileStore } = await import('@tus/file-store')
  await fs.promises.mkdir(uploadsDir(), { recursive: true }) // its free space is measured before each upload
  const datastore = new FileStore({ directory: uploadsDir() })
  datastore.extensions = EXTENSIONS
  const file = (id: string) => path.join(uploadsDir(), id)
  return {
    datastore,
    async freeBytes() {
      const { bavail, bsize } = await fs.promises.statfs(uploadsDir())
      return bavail * bsize
    },
    async localFile(id, size) {
      const stats = await fs.promises.stat(file(id)).catch(() => null)
      if (!stats) return 'missing'
      return stats.size === size ? { path: file(id), temporary: false } : 'unfinished'
    },
    async remove(id) {
      await Promise.all([fs.promises.rm(file(id), { force: true }), fs.promises.rm(`${file(id)}.json`, { force: true })])
    },
  }
}

/** Nothing is kept between requests: the next chunk may go to another process. */
const noCache: KvStore<MetadataValue> = { get: async () => undefined, set: async () => {}, delete: async () => {} }

async function createBucketUploadStore(settings: NonNullable<typeof env.s3>): Promise<UploadStore> {
  const [{ S3Store }, { ERRORS }] = await Promise.all([import('@tus/s3-store'), import('@tus/server')])
  const isNotFound = (error: unknown) => error === ERRORS.FILE_NOT_FOUND

  class BucketStore extends S3Store {
    /** Also removes a finished upload: tus's own removal stops at its completed multipart upload. */
    override async remove(id: string): Promise<void> {
      await super.remove(id).catch((error: unknown) => (isNotFound(error) ? undefined : Promise.reject(error)))
      const Objects = [id, this.infoKey(id), this.partKey(id, true)].map((Key) => ({ Key }))
      await this.client.deleteObjects({ Bucket: this.bucket, Delete: { Objects, Quiet: true } })
    }
  }

  const datastore = new BucketStore({
    partSize: 8 * 1024 * 1024,
    cache: noCache,
    s3ClientConfig: { bucket: settings.bucket, ...s3ClientConfig(settings) },
  })
  datastore.extensions = EXTENSIONS
  let bytesBeingCopied = 0
  return {
    datastore,
    freeBytes: async () => Number.POSITIVE_INFINITY,
    async localFile(id, size) {
      const upload = await datastore.getUpload(id).catch((error: unknown) => (isNotFound(error) ? null : Promise.reject(error)))
      if (!upload) return 'missing'
      if (upload.offset !== size) return 'unfinished'
      // Copies still being written are not on the disk's count yet.
      if ((await tempFreeBytes()) - bytesBeingCopied - size < UPLOAD_DISK_RESERVE_BYTES) {
        throw new MediaRejectedError(STORAGE_FULL_MESSAGE, 507)
      }
      const copy = await tempFile(`upload-${id}`)
      bytesBeingCopied += size
      try {
        await pipeline(await datastore.read(id), fs.createWriteStream(copy))
      } catch (error) {
        await removeTempFile(copy)
        throw error
      } finally {
        bytesBeingCopied -= size
      }
      return { path: copy, temporary: true }
    },
    remove: (id) => datastore.remove(id),
  }
}
