import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3'
import type { Readable } from 'node:stream'
import { logger } from '../logger.server'
import { toNodeReadable } from './input.server'
import { s3ClientConfig } from './s3-client-config'
import { contentTypeForKey, InvalidStorageKeyError, isValidStorageKey, type S3StorageSettings, type Storage } from './storage'

/**
 * Streams are sent in parts of this size, so at most one part is held in memory (a 50 MB video
 * never is). A stream shorter than one part is sent as a single object. S3 wants parts of at
 * least 5 MiB, except the last, and at most 10,000 of them: 8 MiB parts allow 80 GB.
 */
export const S3_PART_SIZE = 8 * 1024 * 1024

/** Splits a stream into buffers of at least `size` bytes (the last one may be smaller or empty). */
async function* partsOf(source: Readable, size: number): AsyncGenerator<Buffer> {
  let chunks: Buffer[] = []
  let length = 0
  for await (const chunk of source) {
    chunks.push(chunk as Buffer)
    length += (chunk as Buffer).length
    if (length >= size) {
      yield Buffer.concat(chunks, length)
      chunks = []
      length = 0
    }
  }
  yield Buffer.concat(chunks, length)
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket'
}

/** Size of the whole object from a `Content-Range: bytes 2-5/10` header. */
function totalSizeOf(contentRange: string | undefined, contentLength: number | undefined): number {
  const total = contentRange?.match(/\/(\d+)$/)?.[1]
  return total === undefined ? (contentLength ?? 0) : Number(total)
}

/**
 * Objects in an S3 bucket, one object per key. Browsers still load them through our own
 * `/media/*` route (`url`), so ranges, caching and security headers are the same as on local
 * disk, and the bucket never needs to be public.
 */
export function createS3Storage(settings: S3StorageSettings, options: { listPageSize?: number } = {}): Storage {
  const Bucket = settings.bucket
  const client = new S3Client(s3ClientConfig(settings))

  // Checked before any request, so a refused key never reaches the network.
  function checkKey(key: string): string {
    if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(key)
    return key
  }

  /** Sends parts one by one; an object only appears under its key once the upload is complete. */
  async function putInParts(Key: string, ContentType: string, parts: AsyncIterator<Buffer>, first: Buffer) {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }))
    try {
      const completed: CompletedPart[] = []
      for (let body: Buffer | undefined = first; body;) {
        const PartNumber = completed.length + 1
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: body, ContentLength: body.length }),
        )
        completed.push({ ETag, PartNumber })
        const next = await parts.next()
        body = next.done || next.value.length === 0 ? undefined : next.value
      }
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: completed } }))
    } catch (error) {
      // The parts already sent are invisible under the key; aborting frees their space. Where
      // that fails, a bucket lifecycle rule removes incomplete uploads (docs/deployment.md).
      await client
        .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }))
        .catch((abortError: unknown) => logger.warn({ err: abortError, key: Key }, 'could not abort an S3 upload'))
      throw error
    }
  }

  return {
    async put(key, data, { contentType }) {
      const Key = checkKey(key)
      if (data instanceof Uint8Array) {
        await client.send(new PutObjectCommand({ Bucket, Key, Body: data, ContentLength: data.length, ContentType: contentType }))
        return
      }
      const source = toNodeReadable(data)
      const parts = partsOf(source, S3_PART_SIZE)
      try {
        const first = await parts.next()
        const body = first.done ? Buffer.alloc(0) : first.value
        if (body.length < S3_PART_SIZE) {
          await client.send(
            new PutObjectCommand({ Bucket, Key, Body: body, ContentLength: body.length, ContentType: contentType }),
          )
        } else {
          await putInParts(Key, contentType, parts, body)
        }
      } finally {
        // Stop reading a source we gave up on (an upload refused by S3).
        await parts.return(undefined)
        source.destroy()
      }
    },

    async get(key, range) {
      const Key = checkKey(key)
      try {
        const response = await client.send(
          new GetObjectCommand({ Bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        )
        return {
          body: response.Body!.transformToWebStream() as ReadableStream<Uint8Array>,
          size: totalSizeOf(response.ContentRange, response.ContentLength),
          contentType: contentTypeForKey(key),
        }
      } catch (error) {
        if (isNotFound(error)) return null
        throw error
      }
    },

    async stat(key) {
      const Key = checkKey(key)
      try {
        const response = await client.send(new HeadObjectCommand({ Bucket, Key }))
        return { size: response.ContentLength ?? 0, contentType: contentTypeForKey(key) }
      } catch (error) {
        if (isNotFound(error)) return null
        throw error
      }
    },

    async delete(key) {
      // S3 answers success for a key that does not exist.
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }))
    },

    async *list(prefix) {
      // Each page starts after the last key of the one before (S3 lists keys in order). This is
      // ListObjects with a marker rather than V2 with continuation tokens: every S3-compatible
      // service pages the same way with it, s3rver included (its V2 tokens need DES, gone from OpenSSL 3).
      let Marker: string | undefined
      for (;;) {
        const page = await client.send(new ListObjectsCommand({ Bucket, Prefix: prefix, Marker, MaxKeys: options.listPageSize }))
        const objects = page.Contents ?? []
        for (const object of objects) {
          // The bucket may hold other things; only what the site could have stored is its own.
          if (!object.Key || !isValidStorageKey(object.Key)) continue
          yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) }
        }
        Marker = objects.at(-1)?.Key
        if (!page.IsTruncated || !Marker) return
      }
    },

    url(key) {
      return `/media/${checkKey(key)}`
    },
  }
}
