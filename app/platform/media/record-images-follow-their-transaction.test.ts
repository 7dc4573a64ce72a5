import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { asFile, HTML_RENAMED_AS_JPEG, plainPng } from '../../../tests/fixtures/images'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { db, type Db } from '../db.server'
import { getImagesByIds } from './images.server'
import { withMediaChange } from './media-change.server'
import { MediaRejectedError } from './media-rejected'

emptyUploadsBeforeEach()

// Records the module knows nothing about, as a feature would keep them: one image per poster,
// an ordered list per album (both referring to `images`, so a row still referred to cannot go).
beforeAll(async () => {
  await db.schema
    .createTable('test_posters')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('image_id', 'text', (c) => c.references('images.id'))
    .execute()
  await db.schema
    .createTable('test_album_images')
    .ifNotExists()
    .addColumn('album_id', 'text', (c) => c.notNull())
    .addColumn('image_id', 'text', (c) => c.notNull().references('images.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute()
})

async function picture(colour: string) {
  return asFile(await plainPng(500, 400, colour), `${colour.slice(1)}.png`, 'image/png')
}

async function imageIds(): Promise<string[]> {
  return (await db.selectFrom('images').select('id').execute()).map((r) => r.id).sort()
}

async function posterImage(id: string, executor: Db = db): Promise<string | null | undefined> {
  const rows = await sql<{ imageId: string | null }>`select image_id from test_posters where id = ${id}`.execute(executor)
  return rows.rows.length === 0 ? undefined : rows.rows[0].imageId
}

async function albumImages(executor: Db = db): Promise<string[]> {
  const rows = await sql<{ imageId: string }>`select image_id from test_album_images order by position`.execute(executor)
  return rows.rows.map((r) => r.imageId)
}

/** Creates or edits the poster: a new image replaces the old one, or `remove` drops it. */
function savePoster(id: string, change: { file?: File; remove?: boolean; alt?: string; failAfter?: boolean }) {
  return withMediaChange(async (media) => {
    const upload = change.file ? await media.storeImage(change.file, 'article') : null
    return media.transaction(db, async (trx) => {
      const current = await posterImage(id, trx)
      const imageId = await media.replace(trx, current ?? null, {
        upload,
        remove: change.remove,
        alt: change.alt ?? '',
      })
      if (current === undefined) await sql`insert into test_posters (id, image_id) values (${id}, ${imageId})`.execute(trx)
      else await sql`update test_posters set image_id = ${imageId} where id = ${id}`.execute(trx)
      if (change.failAfter) throw new Error('the database went away')
    })
  })
}

/** Saves the album's images: `keep` (current ids, in their new order) and then the new files. */
function saveAlbum(keep: string[], files: File[], failAfter = false) {
  return withMediaChange(async (media) => {
    const uploads = await media.storeImages(files, 'product')
    return media.transaction(db, async (trx) => {
      const ids = await media.syncImages(trx, {
        current: await albumImages(trx),
        keep,
        add: uploads,
        alt: 'Album',
        max: { count: 3, message: 'At most 3 images.' },
      })
      await sql`delete from test_album_images`.execute(trx)
      for (const [position, imageId] of ids.entries()) {
        await sql`insert into test_album_images (album_id, image_id, position) values ('a', ${imageId}, ${position})`.execute(trx)
      }
      if (failAfter) throw new Error('the database went away')
      return ids
    })
  })
}

describe("a record's single image", () => {
  it('attaches, replaces and removes it; old files go only once the change is committed', async () => {
    await savePoster('p1', { file: await picture('#aa0000'), alt: 'Red' })
    const first = await posterImage('p1')
    expect(first).not.toBeNull()
    const firstFiles = storedFiles()
    expect(firstFiles).toHaveLength(4)

    // A replacement whose transaction fails: the old image and files stay, the new files go.
    await expect(savePoster('p1', { file: await picture('#00aa00'), failAfter: true })).rejects.toThrow('went away')
    expect(await posterImage('p1')).toBe(first)
    expect(await imageIds()).toEqual([first])
    expect(storedFiles()).toEqual(firstFiles)

    await savePoster('p1', { file: await picture('#0000aa'), alt: 'Blue' })
    const second = await posterImage('p1')
    expect(second).not.toBe(first)
    expect(await imageIds()).toEqual([second])
    expect(storedFiles()).toHaveLength(4)
    expect(storedFiles().some((f) => firstFiles.includes(f))).toBe(false)

    // No new file: the description changes, the files stay.
    await savePoster('p1', { alt: 'Dark blue' })
    expect((await getImagesByIds([second!])).get(second!)?.alt).toBe('Dark blue')
    expect(storedFiles()).toHaveLength(4)

    await savePoster('p1', { remove: true })
    expect(await posterImage('p1')).toBeNull()
    expect(await imageIds()).toEqual([])
    expect(storedFiles()).toEqual([])
  })

  it('stores nothing when the upload is refused', async () => {
    await expect(savePoster('p2', { file: asFile(HTML_RENAMED_AS_JPEG, 'x.jpg') })).rejects.toThrow(MediaRejectedError)
    expect(await imageIds()).toEqual([])
    expect(storedFiles()).toEqual([])
  })
})

describe("a record's ordered images", () => {
  it('keeps some in a new order, removes the others and adds new ones at the end', async () => {
    const [a, b, c] = await saveAlbum([], [await picture('#110000'), await picture('#001100'), await picture('#000011')])
    expect(await albumImages()).toEqual([a, b, c])
    const filesOf = async (id: string) => (await getImagesByIds([id])).get(id)!.variants.map((v) => v.key.slice(7))
    const bFiles = await filesOf(b)

    // An id from elsewhere in `keep` is ignored: a form cannot claim another record's image.
    const [outsider] = await withMediaChange(async (media) => {
      const upload = await media.storeImage(await picture('#777777'), 'product')
      return media.transaction(db, async (trx) => [await media.attach(trx, upload, 'Elsewhere')])
    })
    const ids = await saveAlbum([c, outsider, a], [await picture('#222222')])
    expect(ids).toHaveLength(3)
    expect(ids.slice(0, 2)).toEqual([c, a])
    expect(await albumImages()).toEqual(ids)
    expect(await imageIds()).toEqual([...ids, outsider].sort())
    expect(storedFiles().some((f) => bFiles.includes(f))).toBe(false)
    expect(storedFiles()).toHaveLength(4 * 2) // 400 px squares in WebP and JPEG
  })

  it('refuses more than the most allowed, and a failed save keeps the list and its files as they were', async () => {
    const [a, b] = await saveAlbum([], [await picture('#110000'), await picture('#001100')])
    const before = storedFiles()

    await expect(saveAlbum([a, b], [await picture('#333333'), await picture('#444444')])).rejects.toThrow('At most 3 images.')
    await expect(saveAlbum([b], [await picture('#555555')], true)).rejects.toThrow('went away')

    expect(await albumImages()).toEqual([a, b])
    expect(await imageIds()).toEqual([a, b].sort())
    expect(storedFiles()).toEqual(before)
  })
})
