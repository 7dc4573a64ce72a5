import path from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { asFile, plainPng } from '../../../tests/fixtures/images'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { db, dialectName } from '~/platform/db.server'
import { env } from '~/platform/env.server'
import type { ImageVariant } from '~/platform/media/image-types'
import { ArticleSchema } from './news.schema'
import { ArticleNotFoundError, createArticle, deleteArticle, updateArticle } from './news.service.server'

// Two admins (or one with two tabs, or a double click) save at the same moment. On PostgreSQL
// parallel transactions really overlap (a pool of connections, read committed), so each of
// them must still leave one article per post, one image per article, and no file behind that
// nothing shows. SQLite runs one write transaction at a time; the same tests run there too.

emptyUploadsBeforeEach()

const photo = async (colour: string) => asFile(await plainPng(600, 400, colour), 'photo.png', 'image/png')
const edit = (values: Record<string, unknown>) => ArticleSchema.parse({ content: 'Text', imageAlt: '', ...values })

/** The image rows and, for each, the names of its files. */
async function storedImages() {
  const rows = await db.selectFrom('images').select(['id', 'variants']).execute()
  return rows.map((row) => ({
    id: row.id,
    files: (JSON.parse(row.variants) as ImageVariant[]).map((v) => path.basename(v.key)).sort(),
  }))
}

/**
 * Runs `changes` while another PostgreSQL session holds the article's row, and lets go once
 * `waiting` of them wait for it: they then all go at once, the moment a real race is lost. On
 * SQLite the changes simply run in parallel.
 */
async function whileArticleIsHeld<T>(id: string, waiting: number, changes: () => Promise<T>[]): Promise<T[]> {
  if (dialectName !== 'postgres') return Promise.all(changes())
  const holder = new pg.Client({ connectionString: env.DATABASE_URL })
  await holder.connect()
  try {
    await holder.query('begin')
    await holder.query('select id from articles where id = $1 for update', [id])
    const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid
    const running = changes().map((change) =>
      change.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    )
    await expect.poll(() => sessionsWaitingFor(holder, holderPid), { timeout: 10_000 }).toBe(waiting)
    await holder.query('commit')
    return (await Promise.all(running)).map((result) => {
      if ('error' in result) throw result.error
      return result.value
    })
  } finally {
    await holder.end()
  }
}

/** The sessions that wait, directly or in a queue behind others, for the holder's locks. */
async function sessionsWaitingFor(client: pg.Client, holderPid: number): Promise<number> {
  const { rows } = await client.query<{ pid: number; blockers: number[] }>(
    `select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity where wait_event_type = 'Lock'`,
  )
  const queue = new Set([holderPid])
  for (let grew = true; grew;) {
    grew = false
    for (const { pid, blockers } of rows) {
      if (queue.has(pid) || !blockers.some((blocker) => queue.has(blocker))) continue
      queue.add(pid)
      grew = true
    }
  }
  return queue.size - 1
}

describe('news saved in parallel', () => {
  it('posts ten articles with the same title at once, each under a slug of its own', async () => {
    const posts = await Promise.allSettled(
      Array.from({ length: 10 }, () => createArticle({ title: 'Food Drive', content: 'Text', imageAlt: '' })),
    )
    expect(posts.filter((p) => p.status === 'rejected')).toEqual([])
    const slugs = (await db.selectFrom('articles').select('slug').execute()).map((a) => a.slug).sort()
    expect(slugs).toEqual(['food-drive', ...Array.from({ length: 9 }, (_, i) => `food-drive-${i + 2}`)].sort())
  })

  it('replaces the image of one article from four edits at once and keeps only the last image', async () => {
    const { id } = await createArticle({ title: 'Harvest', content: 'Text', image: await photo('#000000'), imageAlt: '' })
    const uploads = await Promise.all(['#ff0000', '#00ff00', '#0000ff', '#ffff00'].map(photo))
    await whileArticleIsHeld(id, uploads.length, () =>
      uploads.map((image) => updateArticle(id, edit({ title: 'Harvest', image }))),
    )

    const images = await storedImages()
    const article = await db.selectFrom('articles').select('imageId').where('id', '=', id).executeTakeFirstOrThrow()
    expect(images.map((image) => image.id)).toEqual([article.imageId])
    expect(storedFiles()).toEqual(images[0].files)
  })

  it('deletes an article while it is edited and leaves neither image rows nor files', async () => {
    const { id } = await createArticle({ title: 'Fair', content: 'Text', image: await photo('#000000'), imageAlt: '' })
    const uploads = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map(photo))
    // An edit that comes after the delete is told the article is gone; nothing else may fail.
    const goneOrSaved = (change: Promise<unknown>) =>
      change.catch((error: unknown) => {
        if (!(error instanceof ArticleNotFoundError)) throw error
      })
    await whileArticleIsHeld(id, uploads.length + 1, () => [
      ...uploads.map((image) => goneOrSaved(updateArticle(id, edit({ title: 'Fair', image })))),
      deleteArticle(id),
    ])

    expect(await db.selectFrom('articles').select('id').execute()).toEqual([])
    expect(await storedImages()).toEqual([])
    expect(storedFiles()).toEqual([])
  })
})
