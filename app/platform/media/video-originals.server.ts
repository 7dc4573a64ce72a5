import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { db } from '../db.server'
import { env } from '../env.server'
import { contentTypeForKey, PRIVATE_KEY_PREFIX, storage } from '../storage/index.server'
import { removeTempFile, tempFile } from '../temp-files.server'
import type { VideoFormat } from './video-files.server'

/**
 * The originals of videos waiting for conversion: private (they may carry where they were
 * recorded), never served. With STORAGE_DRIVER=file they live in DATA_DIR/video-work; with S3 in
 * the bucket under `private/video-originals/`, so that any process can convert them and a process
 * killed mid-conversion loses nothing.
 */

/** Originals on local disk (STORAGE_DRIVER=file). */
export function workDir(): string {
  return path.join(env.dataDir, 'video-work')
}

function originalPath(id: string, format: VideoFormat): string {
  return path.join(workDir(), `${id}.original.${format}`)
}

const ORIGINALS_PREFIX = `${PRIVATE_KEY_PREFIX}video-originals/`

function originalKey(id: string, format: VideoFormat): string {
  return `${ORIGINALS_PREFIX}${id}.${format}`
}

/** A local file with the original, for as long as the conversion needs it. */
interface LocalOriginal {
  path: string
  release(): Promise<void>
}

/** Keeps `file` as the original of a video: moved (an upload on local disk) or copied (demo content, a copy of a bucket's upload). */
export async function keepOriginal(id: string, format: VideoFormat, file: string, how: 'move' | 'copy'): Promise<void> {
  if (env.s3) {
    const key = originalKey(id, format)
    await storage.put(key, fs.createReadStream(file), { contentType: contentTypeForKey(key) })
    return
  }
  const original = originalPath(id, format)
  await fs.promises.mkdir(workDir(), { recursive: true })
  if (how === 'move') await fs.promises.rename(file, original)
  else await fs.promises.copyFile(file, original)
  // Its age now counts from here (see removeOrphanOriginals).
  const now = new Date()
  await fs.promises.utimes(original, now, now)
}

/** Gives a kept original back to the upload it was moved from (its change was not recorded). */
export async function returnOriginal(id: string, format: VideoFormat, uploadFile: string): Promise<void> {
  if (env.s3) await storage.delete(originalKey(id, format))
  else await fs.promises.rename(originalPath(id, format), uploadFile)
}

/** The original on local disk (a temporary copy from the bucket), or null if it is gone. */
export async function fetchOriginal(id: string, format: VideoFormat): Promise<LocalOriginal | null> {
  if (!env.s3) {
    const file = originalPath(id, format)
    return fs.existsSync(file) ? { path: file, release: async () => {} } : null
  }
  const object = await storage.get(originalKey(id, format))
  if (!object) return null
  const copy = await tempFile(`${id}.original.${format}`)
  try {
    await pipeline(object.body, fs.createWriteStream(copy))
  } catch (error) {
    await removeTempFile(copy)
    throw error
  }
  return { path: copy, release: () => removeTempFile(copy) }
}

export async function removeOriginal(id: string, format: VideoFormat): Promise<void> {
  if (env.s3) await storage.delete(originalKey(id, format))
  else await fs.promises.rm(originalPath(id, format), { force: true })
}

/** Originals whose video is gone (a crash between keeping an upload and recording it). */
export async function removeOrphanOriginals(olderThan: Date): Promise<number> {
  const originals = env.s3 ? await listStoredOriginals() : await listLocalOriginals()
  const ids = [...new Set(originals.map((original) => original.id))]
  if (ids.length === 0) return 0
  const known = new Set((await db.selectFrom('videos').select('id').where('id', 'in', ids).execute()).map((r) => r.id))
  let removed = 0
  for (const original of originals) {
    if (known.has(original.id) || original.modified >= olderThan) continue
    await original.remove()
    removed++
  }
  return removed
}

interface ListedOriginal {
  id: string
  modified: Date
  remove(): Promise<void>
}

async function listStoredOriginals(): Promise<ListedOriginal[]> {
  const listed: ListedOriginal[] = []
  for await (const object of storage.list(ORIGINALS_PREFIX)) {
    const id = object.key.slice(ORIGINALS_PREFIX.length).split('.')[0]
    listed.push({ id, modified: object.lastModified, remove: () => storage.delete(object.key) })
  }
  return listed
}

async function listLocalOriginals(): Promise<ListedOriginal[]> {
  const names = await fs.promises.readdir(workDir()).catch(() => [] as string[])
  const listed: ListedOriginal[] = []
  for (const name of names) {
    const file = path.join(workDir(), name)
    const stats = await fs.promises.stat(file).catch(() => null)
    if (stats) listed.push({ id: name.split('.')[0], modified: stats.mtime, remove: () => fs.promises.rm(file, { force: true }) })
  }
  return listed
}
