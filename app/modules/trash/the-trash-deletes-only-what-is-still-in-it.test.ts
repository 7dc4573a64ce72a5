import { describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { createArticle } from '~/modules/news/news.service.server'
import { countTrash, deleteForGood, moveToTrash, removeFromTrash, restoreFromTrash } from './trash.server'

async function trashedArticles(count: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const { id } = await createArticle({ title: `Old news ${i}`, content: 'Gone.', imageAlt: '' })
    await moveToTrash('article', id)
    ids.push(id)
  }
  return ids
}

const stillThere = async (id: string) =>
  (await db.selectFrom('articles').select('id').where('id', '=', id).executeTakeFirst()) !== undefined

describe('the trash', () => {
  it('deletes for good only an item still in it: one restored meanwhile stays', async () => {
    const [id] = await trashedArticles(1)
    await restoreFromTrash('article', id)
    expect(await deleteForGood('article', id)).toBeUndefined()
    expect(await stillThere(id)).toBe(true)
    await moveToTrash('article', id)
    expect(await deleteForGood('article', id)).toEqual({ label: 'Old news 0' })
    expect(await stillThere(id)).toBe(false)
  })

  it('empties one batch at a time and counts what is left', async () => {
    const ids = await trashedArticles(5)
    expect(await countTrash(['article'])).toBe(5)
    expect(await removeFromTrash(['article'], null, 2)).toBe(2)
    expect(await countTrash(['article'])).toBe(3)
    expect(await countTrash(['product'])).toBe(0)
    // A restored item is not counted as removed, nor removed.
    await restoreFromTrash('article', ids[4])
    expect(await removeFromTrash(['article'], null, 10)).toBe(2)
    expect(await countTrash(['article'])).toBe(0)
    expect(await stillThere(ids[4])).toBe(true)
  })
})
