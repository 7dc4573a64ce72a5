import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { asFile, plainPng } from '../../../tests/fixtures/images'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { db } from '../db.server'
import { env } from '../env.server'
import { storage } from '../storage/index.server'
import { getImagesByIds } from './images.server'
import { withMediaChange } from './media-change.server'
import { imageFiles, removeUnreferencedFiles, type StoredFileOwner } from './unreferenced-files.server'

emptyUploadsBeforeEach()

const uploadsDir = path.join(env.dataDir, 'uploads')
const TWO_HOURS_AGO = new Date(Date.now() - 2 * 60 * 60 * 1000)

function age(relativePath: string, when = TWO_HOURS_AGO) {
  fs.utimesSync(path.join(uploadsDir, relativePath), when, when)
}

async function recordedImage(): Promise<string[]> {
  const id = await withMediaChange(async (media) => {
    const upload = await media.storeImage(asFile(await plainPng(500, 400), 'a.png', 'image/png'), 'article')
    return media.transaction(db, (trx) => media.attach(trx, upload, 'Kept'))
  })
  return (await getImagesByIds([id])).get(id)!.variants.map((v) => v.key)
}

describe('the start-up sweep of stored files', () => {
  it('removes old files no row refers to and old partial writes, and keeps everything else', async () => {
    const kept = await recordedImage()
    for (const key of kept) age(key)
    // What a process killed between storing and committing leaves: renamed files without a row…
    await storage.put('images/0b7e3a4c-0000-4000-8000-000000000001-400.webp', Buffer.from('x'), {
      contentType: 'image/webp',
    })
    await storage.put('images/0b7e3a4c-0000-4000-8000-000000000001-400.jpg', Buffer.from('x'), {
      contentType: 'image/jpeg',
    })
    age('images/0b7e3a4c-0000-4000-8000-000000000001-400.webp')
    age('images/0b7e3a4c-0000-4000-8000-000000000001-400.jpg')
    // …and a write cut short before its rename.
    fs.writeFileSync(path.join(uploadsDir, '.partial', 'cut-short'), 'half a file')
    age('.partial/cut-short')
    // Files of a change still under way (this process or another) are young: they stay.
    await storage.put('images/0b7e3a4c-0000-4000-8000-000000000002-400.webp', Buffer.from('x'), {
      contentType: 'image/webp',
    })
    fs.writeFileSync(path.join(uploadsDir, '.partial', 'being-written'), 'half a file')
    // Another owner's folder is not the images' business.
    await storage.put('videos/0b7e3a4c-0000-4000-8000-000000000003.mp4', Buffer.from('x'), {
      contentType: 'video/mp4',
    })
    age('videos/0b7e3a4c-0000-4000-8000-000000000003.mp4')

    const result = await removeUnreferencedFiles(storage, [imageFiles])

    expect(result).toEqual({ unreferenced: 2, abandonedWrites: 1 })
    expect(storedFiles()).toEqual(
      [
        ...kept.map((key) => path.basename(key)),
        '0b7e3a4c-0000-4000-8000-000000000002-400.webp',
        '0b7e3a4c-0000-4000-8000-000000000003.mp4',
        'being-written',
      ].sort(),
    )
  })

  it('asks every registered owner which of its files are still referenced', async () => {
    const videoFiles: StoredFileOwner = {
      prefix: 'videos/',
      listReferencedKeys: async () => new Set(['videos/0b7e3a4c-0000-4000-8000-000000000004.mp4']),
    }
    for (const n of [4, 5]) {
      const key = `videos/0b7e3a4c-0000-4000-8000-00000000000${n}.mp4`
      await storage.put(key, Buffer.from('x'), { contentType: 'video/mp4' })
      age(key)
    }
    await removeUnreferencedFiles(storage, [imageFiles, videoFiles])
    expect(storedFiles()).toEqual(['0b7e3a4c-0000-4000-8000-000000000004.mp4'])
  })
})
