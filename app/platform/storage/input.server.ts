import { Readable } from 'node:stream'
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web'
import type { StorageInput } from './storage'

/** Any input a driver accepts, as one Node stream. */
export function toNodeReadable(data: StorageInput): Readable {
  if (data instanceof Readable) return data
  if (data instanceof Uint8Array) return Readable.from([data])
  return Readable.fromWeb(data as NodeWebReadableStream<Uint8Array>)
}
