import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  contentTypeForKey,
  InvalidStorageKeyError,
  isValidStorageKey,
  StorageFullError,
  type ByteRange,
  type Storage,
} from './storage'
import { toNodeReadable } from './input.server'

// Partial writes go here (inside the root, so the final rename stays on one file system).
// Keys cannot start with a dot, so nothing in it is ever served.
const PARTIAL_DIR = '.partial'

/** Files under `root`, one file per key; `urlPrefix` is where the media route serves them. */
export function createLocalDiskStorage(root: string, urlPrefix = '/media'): Storage {
  const rootDir = path.resolve(root)

  function resolveKey(key: string): string {
    const file = path.resolve(rootDir, key)
    // The key pattern already excludes traversal; this is the second lock on the same door.
    if (!isValidStorageKey(key) || !file.startsWith(rootDir + path.sep)) throw new InvalidStorageKeyError(key)
    return file
  }

  async function statFile(key: string) {
    try {
      const stats = await fs.promises.stat(resolveKey(key))
      return stats.isFile() ? stats : null
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  return {
    async put(key, data) {
      const file = resolveKey(key)
      const source = toNodeReadable(data)
      // The source may fail before the pipeline below listens; the pipeline still reports it.
      source.on('error', () => {})
      const partialDir = path.join(rootDir, PARTIAL_DIR)
      await fs.promises.mkdir(partialDir, { recursive: true })
      await fs.promises.mkdir(path.dirname(file), { recursive: true })
      const partial = path.join(partialDir, crypto.randomUUID())
      try {
        await pipeline(source, fs.createWriteStream(partial, { flags: 'wx' }))
        await fs.promises.rename(partial, file)
      } catch (error) {
        await fs.promises.rm(partial, { force: true })
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'ENOSPC' || code === 'EDQUOT') throw new StorageFullError({ cause: error })
        throw error
      }
    },

    async get(key, range?: ByteRange) {
      const stats = await statFile(key)
      if (!stats) return null
      const stream = fs.createReadStream(resolveKey(key), range ? { start: range.start, end: range.end } : {})
      return {
        body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
        size: stats.size,
        contentType: contentTypeForKey(key),
      }
    },

    async stat(key) {
      const stats = await statFile(key)
      return stats ? { size: stats.size, contentType: contentTypeForKey(key) } : null
    },

    async delete(key) {
      await fs.promises.rm(resolveKey(key), { force: true })
    },

    async *list(prefix) {
      // Walk the folder the prefix names; keys never start with a dot, so '.partial' is skipped.
      const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : ''
      let entries: fs.Dirent[]
      try {
        entries = await fs.promises.readdir(path.join(rootDir, folder), { recursive: true, withFileTypes: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
        throw error
      }
      for (const entry of entries) {
        if (!entry.isFile()) continue
        const file = path.join(entry.parentPath, entry.name)
        const key = path.relative(rootDir, file).split(path.sep).join('/')
        if (!key.startsWith(prefix) || !isValidStorageKey(key)) continue
        const stats = await fs.promises.stat(file).catch(() => null)
        if (stats) yield { key, size: stats.size, lastModified: stats.mtime }
      }
    },

    url(key) {
      // Made for every picture of every page: the key's pattern is the check, no file path is involved.
      if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(key)
      return `${urlPrefix}/${key}`
    },

    async removeAbandonedWrites(startedBefore) {
      const partialDir = path.join(rootDir, PARTIAL_DIR)
      let names: string[]
      try {
        names = await fs.promises.readdir(partialDir)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
        throw error
      }
      let removed = 0
      for (const name of names) {
        const file = path.join(partialDir, name)
        const stats = await fs.promises.stat(file).catch(() => null)
        if (!stats || stats.mtime >= startedBefore) continue
        await fs.promises.rm(file, { force: true, recursive: true })
        removed++
      }
      return removed
    },
  }
}
