import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { asFile, HTML_RENAMED_AS_JPEG, plainPng } from '../../../tests/fixtures/images'
import { emptyUploadsBeforeEach, storedFiles } from '../../../tests/setup/uploads'
import { db } from '~/platform/db.server'
import { slugify } from '~/platform/slug'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { getArticleForEdit, getPublishedArticleBySlug, listArticlesForAdmin, listPublishedArticles } from './news.queries.server'
import { ArticleSchema, ARTICLES_PER_PAGE } from './news.schema'
import { ArticleNotFoundError, createArticle, deleteArticle, updateArticle } from './news.service.server'

emptyUploadsBeforeEach()

async function photo(name = 'photo.png') {
  return asFile(await plainPng(1000, 700), name, 'image/png')
}

const edit = (values: Record<string, unknown>) => ArticleSchema.parse({ imageAlt: '', ...values })

describe('news articles', () => {
  it('gives every article a readable slug of its own', async () => {
    expect(slugify('Back to School Drive: 100+ Bags!', 'article')).toBe('back-to-school-drive-100-bags')
    expect(slugify('Café Día', 'article')).toBe('cafe-dia')
    expect(slugify('🙏🙏', 'article')).toBe('article')
    const first = await createArticle({ title: 'Food Drive', content: 'One', imageAlt: '' })
    const second = await createArticle({ title: 'Food drive!', content: 'Two', imageAlt: '' })
    const third = await createArticle({ title: 'FOOD DRIVE', content: 'Three', imageAlt: '' })
    expect([first.slug, second.slug, third.slug]).toEqual(['food-drive', 'food-drive-2', 'food-drive-3'])
    expect((await getPublishedArticleBySlug('food-drive-2'))?.title).toBe('Food drive!')
  })

  it('lists articles newest first with an excerpt and a read time computed from the text', async () => {
    await createArticle({
      title: 'Older',
      content: 'Short *news*.',
      imageAlt: '',
      createdAt: '2026-01-01T10:00:00.000Z',
    })
    await createArticle({
      title: 'Newer',
      content: `## Report\n\n${'word '.repeat(450)}`,
      imageAlt: '',
      createdAt: '2026-02-01T10:00:00.000Z',
    })
    const { articles, page, pageCount } = await listPublishedArticles(1)
    expect(articles.map((a) => [a.title, a.readMinutes])).toEqual([
      ['Newer', 3],
      ['Older', 1],
    ])
    expect(articles[1].excerpt).toBe('Short news.')
    expect(articles[0].excerpt.startsWith('Report word word')).toBe(true)
    expect({ page, pageCount }).toEqual({ page: 1, pageCount: 1 })
  })

  it('splits long lists into pages', async () => {
    for (let i = 0; i <= ARTICLES_PER_PAGE; i++) {
      await createArticle({
        title: `Article ${i}`,
        content: 'Text',
        imageAlt: '',
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      })
    }
    const first = await listPublishedArticles(1)
    const second = await listPublishedArticles(2)
    expect(first.articles).toHaveLength(ARTICLES_PER_PAGE)
    expect(first.articles[0].title).toBe(`Article ${ARTICLES_PER_PAGE}`)
    expect(second.articles.map((a) => a.title)).toEqual(['Article 0'])
    expect(second.pageCount).toBe(2)
  })

  it('stores an image with the article and deletes the files with it', async () => {
    const { id, slug } = await createArticle({
      title: 'With picture',
      content: 'Text',
      image: await photo(),
      imageAlt: 'Bags of rice',
    })
    expect(storedFiles()).toHaveLength(6)
    const article = await getPublishedArticleBySlug(slug)
    expect(article?.image).toMatchObject({ width: 1000, height: 700, alt: 'Bags of rice' })
    expect(article?.socialImage?.path).toMatch(/\.jpg$/)

    await deleteArticle(id)
    expect(storedFiles()).toEqual([])
    expect(await db.selectFrom('images').select('id').execute()).toEqual([])
    expect(await listArticlesForAdmin()).toEqual([])
    // Deleting it again (another tab, a double click) is not an error.
    await expect(deleteArticle(id)).resolves.toBeUndefined()
  })

  it('refuses an unusable image and saves nothing', async () => {
    const saving = createArticle({
      title: 'Bad',
      content: 'Text',
      image: asFile(HTML_RENAMED_AS_JPEG, 'x.jpg'),
      imageAlt: '',
    })
    await expect(saving).rejects.toThrow(MediaRejectedError)
    expect(await listArticlesForAdmin()).toEqual([])
    expect(storedFiles()).toEqual([])
  })

  it('removes the stored image files when the article cannot be saved', async () => {
    await sql`alter table articles rename to articles_unavailable`.execute(db)
    try {
      await expect(createArticle({ title: 'Lost', content: 'Text', image: await photo(), imageAlt: '' })).rejects.toThrow()
    } finally {
      await sql`alter table articles_unavailable rename to articles`.execute(db)
    }
    expect(storedFiles()).toEqual([])
    expect(await db.selectFrom('images').select('id').execute()).toEqual([])
  })

  it('edits the text and replaces or removes the image, keeping the address', async () => {
    const { id, slug } = await createArticle({
      title: 'First title',
      content: 'Text',
      image: await photo('a.png'),
      imageAlt: 'Old',
    })
    const oldFiles = storedFiles()

    const updated = await updateArticle(
      id,
      edit({ title: 'Second title', content: 'New text', image: await photo('b.png'), imageAlt: 'New' }),
    )
    expect(updated.slug).toBe(slug)
    const newFiles = storedFiles()
    expect(newFiles).toHaveLength(6)
    expect(newFiles.some((f) => oldFiles.includes(f))).toBe(false)
    expect(await getArticleForEdit(id)).toMatchObject({
      title: 'Second title',
      content: 'New text',
      image: { alt: 'New' },
    })

    await updateArticle(id, edit({ title: 'Second title', content: 'New text', imageAlt: 'Renamed' }))
    expect((await getArticleForEdit(id))?.image?.alt).toBe('Renamed')
    expect(storedFiles()).toEqual(newFiles)

    await updateArticle(id, edit({ title: 'Second title', content: 'New text', removeImage: true }))
    expect((await getArticleForEdit(id))?.image).toBeNull()
    expect(storedFiles()).toEqual([])
    expect(await db.selectFrom('images').select('id').execute()).toEqual([])
  })

  it('reports an edit of a deleted article and keeps no files from it', async () => {
    const { id } = await createArticle({ title: 'Gone soon', content: 'Text', imageAlt: '' })
    await deleteArticle(id)
    await expect(updateArticle(id, edit({ title: 'T', content: 'C', image: await photo() }))).rejects.toThrow(
      ArticleNotFoundError,
    )
    expect(storedFiles()).toEqual([])
  })
})
