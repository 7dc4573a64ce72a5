import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { uploadAs } from '../../../tests/fixtures/finished-upload'
import { HTML_RENAMED_AS_JPEG, plainPng } from '../../../tests/fixtures/images'
import { makeVideo } from '../../../tests/fixtures/videos'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { createUser } from '~/modules/users/users.service.server'
import type { SessionUser } from '~/platform/auth.server'
import { db } from '~/platform/db.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { takeFinishedUpload } from '~/platform/media/uploads.server'
import { videoWorkIdle } from '~/platform/media/video-conversion.server'
import { getMediaForEdit, listMediaForAdmin } from './gallery.admin-queries.server'
import { getPublishedMediaBySlug, listFeaturedMedia, listMediaForSitemap, listPublishedMedia } from './gallery.queries.server'
import { MEDIA_FILES_MAX, MediaEditSchema, MediaUploadSchema, type MediaUploadInput } from './gallery.schema'
import { fileProblem } from '~/platform/media/image-presets'
import { MEDIA_PER_PAGE } from './media-categories'
import { addMediaItems, deleteMediaItem, MediaItemNotFoundError, updateMediaItem } from './gallery.service.server'

const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-fixtures-'))
let clip: Buffer
beforeAll(async () => {
  clip = fs.readFileSync(await makeVideo(path.join(fixtures, 'clip.mp4'), { container: 'mp4', size: '320x240' }))
  return () => fs.rmSync(fixtures, { recursive: true, force: true })
})

emptyUploadsBeforeEach()
let admin: SessionUser
beforeEach(async () => {
  admin = await createUser({ email: 'ada@example.org', name: 'Ada', role: 'admin', password: 'a long password' })
})
afterEach(() => videoWorkIdle())

async function upload(name: string, bytes?: Buffer, type = 'image/png') {
  return (await uploadAs(admin, bytes ?? (await plainPng(900, 600)), name, type)).id
}

function details(values: Partial<MediaUploadInput> & { files: string[] }): MediaUploadInput {
  return MediaUploadSchema.parse({ title: 'Sports Day', description: 'Races and games.', ...values })
}

describe('the gallery', () => {
  it('adds one item per file, photos at once and videos once converted, newest first in the order chosen', async () => {
    const files = [await upload('a.png'), await upload('clip.mp4', clip, 'video/mp4'), await upload('b.png')]
    const { slugs } = await addMediaItems(details({ files, category: 'Education', featured: true }), admin)
    expect(slugs).toEqual(['sports-day', 'sports-day-2', 'sports-day-3'])
    // The uploads were taken over: none is left to use again.
    for (const id of files) await expect(takeFinishedUpload(id, admin)).rejects.toThrow(MediaRejectedError)

    // The admin sees the video converting; visitors do not see it yet.
    const [first, video] = await listMediaForAdmin()
    expect(first).toMatchObject({ slug: 'sports-day', kind: 'photo', status: 'ready', featured: true })
    expect(video).toMatchObject({ slug: 'sports-day-2', kind: 'video', status: 'processing' })
    expect(video.statusText).toMatch(/^Converting/)
    expect((await listPublishedMedia(null, 1)).items.map((i) => i.slug)).toEqual(['sports-day', 'sports-day-3'])
    expect(await getPublishedMediaBySlug('sports-day-2', null)).toBeNull()

    await videoWorkIdle()
    const { items } = await listPublishedMedia('Education', 1)
    expect(items.map((i) => [i.slug, i.kind])).toEqual([
      ['sports-day', 'photo'],
      ['sports-day-2', 'video'],
      ['sports-day-3', 'photo'],
    ])
    const shown = await getPublishedMediaBySlug('sports-day-2', 'Education')
    expect(shown).toMatchObject({ title: 'Sports Day', descriptionText: 'Races and games.', category: 'Education' })
    expect(shown!.video).toMatchObject({ contentType: 'video/mp4' })
    expect(shown!.video!.src).toMatch(/^\/media\/videos\/.+\.mp4$/)
    // Its poster stands for it in the grid and in link previews.
    expect(shown!.thumbnail.src).toMatch(/^\/media\/images\//)
    expect(shown!.socialImage!.path).toMatch(/\.jpg$/)
    expect([shown!.previous, shown!.next]).toEqual(['sports-day', 'sports-day-3'])
    expect((await listFeaturedMedia(4)).map((i) => i.slug)).toEqual(['sports-day', 'sports-day-2', 'sports-day-3'])
    expect((await listMediaForSitemap()).map((i) => i.slug)).toEqual(['sports-day', 'sports-day-2', 'sports-day-3'])
    // Published together at one chosen time, they still keep the order chosen.
    const atOnce = await addMediaItems(
      {
        ...details({ files: [await upload('c.png'), await upload('d.png')], category: 'Community' }),
        publishAt: new Date().toISOString(),
      },
      admin,
    )
    expect((await listPublishedMedia('Community', 1)).items.slice(0, 2).map((i) => i.slug)).toEqual(atOnce.slugs)
  })

  it('filters by category, and steps through the neighbours of the list it was opened from', async () => {
    await addMediaItems(details({ title: 'Clinic', files: [await upload('c.png')], category: 'Health' }), admin)
    await addMediaItems(details({ title: 'Garden', files: [await upload('g.png')], category: 'Community' }), admin)
    await addMediaItems(details({ title: 'Screening', files: [await upload('s.png')], category: 'Health' }), admin)
    expect((await listPublishedMedia('Health', 1)).items.map((i) => i.title)).toEqual(['Screening', 'Clinic'])
    expect((await listPublishedMedia('Projects', 1)).items).toEqual([])
    expect(await getPublishedMediaBySlug('screening', 'Health')).toMatchObject({ previous: null, next: 'clinic' })
    expect(await getPublishedMediaBySlug('screening', null)).toMatchObject({ previous: null, next: 'garden' })
    // A category the item is not in does not decide its neighbours.
    expect(await getPublishedMediaBySlug('garden', 'Health')).toMatchObject({ previous: 'screening', next: 'clinic' })
  })

  it('splits long lists into pages', async () => {
    const files = []
    for (let i = 0; i <= MEDIA_PER_PAGE; i++) files.push(await upload(`${i}.png`, await plainPng(40, 30)))
    // A form takes at most MEDIA_FILES_MAX files at once.
    for (let start = 0; start < files.length; start += MEDIA_FILES_MAX) {
      await addMediaItems(details({ files: files.slice(start, start + MEDIA_FILES_MAX) }), admin)
    }
    const [first, second] = [await listPublishedMedia(null, 1), await listPublishedMedia(null, 2)]
    expect(first.items).toHaveLength(MEDIA_PER_PAGE)
    // The oldest: the last file of the first form.
    expect(second.items.map((i) => i.slug)).toEqual([`sports-day-${MEDIA_FILES_MAX}`])
    expect(second.pageCount).toBe(2)
  })

  it("refuses a file that is no image or video with the old site's message, keeping nothing", async () => {
    const good = await upload('good.png')
    const bad = await upload('party.jpg', HTML_RENAMED_AS_JPEG, 'image/jpeg')
    const adding = addMediaItems(details({ files: [good, bad] }), admin)
    await expect(adding).rejects.toThrow(new MediaRejectedError('party.jpg is not a valid image or video type'))
    expect(await listMediaForAdmin()).toEqual([])
    expect(storedFiles()).toEqual([])
    // The good file can be sent again with the form; the refused one is gone.
    await expect(takeFinishedUpload(good, admin)).resolves.toMatchObject({ filename: 'good.png' })
    await expect(takeFinishedUpload(bad, admin)).rejects.toThrow(MediaRejectedError)
  })

  it('asks for at least one file, a title and a description', () => {
    const result = MediaUploadSchema.safeParse({ title: ' ', description: '' })
    expect(result.error?.issues.map((i) => i.message).sort()).toEqual([
      'Description is required',
      'Please select at least one file',
      'Title is required',
    ])
    expect(MediaUploadSchema.parse({ title: 'T', description: 'D', files: ['x'] }).category).toBe('Events')
    // The browser's check before sending, with the old site's messages.
    const MB = 1024 * 1024
    const problem = (file: { name: string; type: string; size: number }) => fileProblem(file, 'gallery')
    expect(problem({ name: 'notes.pdf', type: 'application/pdf', size: 1 })).toBe('notes.pdf is not a valid image or video type')
    expect(problem({ name: 'long.mov', type: 'video/quicktime', size: 51 * MB })).toBe('long.mov is larger than 50MB')
    expect(problem({ name: 'ok.webp', type: 'image/webp', size: 50 * MB })).toBeNull()
  })

  it('edits title, description, category and featured; the address stays', async () => {
    await addMediaItems(details({ files: [await upload('a.png')] }), admin)
    const [{ id }] = await listMediaForAdmin()
    const input = MediaEditSchema.parse({
      title: 'Sports Day 2026',
      description: 'New text',
      category: 'Community',
      featured: true,
    })
    expect(await updateMediaItem(id, input)).toEqual({ slug: 'sports-day' })
    expect(await getMediaForEdit(id)).toMatchObject({
      title: 'Sports Day 2026',
      description: 'New text',
      category: 'Community',
      featured: true,
    })
    const shown = await getPublishedMediaBySlug('sports-day', null)
    expect(shown!.thumbnail.alt).toBe('Sports Day 2026')
    await expect(updateMediaItem(crypto.randomUUID(), input)).rejects.toThrow(MediaItemNotFoundError)
  })

  it('deletes an item with every file of it: the photo variants, or the video and its poster', async () => {
    await addMediaItems(details({ files: [await upload('a.png'), await upload('clip.mp4', clip, 'video/mp4')] }), admin)
    await videoWorkIdle()
    expect(storedFiles().length).toBeGreaterThan(4)
    for (const item of await listMediaForAdmin()) await deleteMediaItem(item.id)
    expect(storedFiles()).toEqual([])
    for (const table of ['mediaItems', 'images', 'videos'] as const) {
      expect(await db.selectFrom(table).select('id').execute()).toEqual([])
    }
    await expect(deleteMediaItem(crypto.randomUUID())).resolves.toBeUndefined()
  })
})
