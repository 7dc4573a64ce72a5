import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { createMigrator } from '../migrate.server'
import { migrations } from './index'

// The migration before the one that gave media items their own table.
const names = Object.keys(migrations).sort()
const beforeMediaItems = names[names.indexOf('0008-media-items') - 1]

afterAll(async () => {
  const { error } = await (await createMigrator()).migrateToLatest()
  if (error) throw error
})

async function importedArticle(slug: string, category: string | null, withImage: boolean) {
  const now = '2026-03-01T10:00:00.000Z'
  const imageId = withImage ? crypto.randomUUID() : null
  if (imageId) {
    await sql`insert into images (id, width, height, alt, variants, created_at) values (${imageId}, 800, 600, '', '[]', ${now})`.execute(
      db,
    )
  }
  await sql`
    insert into articles (id, slug, title, content, category, image_id, created_at, updated_at)
    values (${crypto.randomUUID()}, ${slug}, ${slug.replace(/-/g, ' ')}, 'Imported.', ${category}, ${imageId}, ${now}, ${now})
  `.execute(db)
  return imageId
}

describe('upgrading a site whose imported gallery items sat among the articles', () => {
  it('moves them to the gallery, keeps news as news, and drops the category column', async () => {
    const { error } = await (await createMigrator()).migrateTo(beforeMediaItems)
    if (error) throw error
    const photo = await importedArticle('health-fair', 'Health', true)
    const featured = await importedArticle('graduation...', 'Education', true)
    await importedArticle('annual-report', 'Announcements', true)
    await importedArticle('caption-without-picture', 'Events', false)
    await importedArticle('our-news', null, false)

    const up = await (await createMigrator()).migrateToLatest()
    if (up.error) throw up.error

    const items = await db
      .selectFrom('mediaItems')
      .select(['slug', 'kind', 'category', 'featured', 'imageId', 'description'])
      .orderBy('slug')
      .execute()
    expect(items).toEqual([
      { slug: 'graduation...', kind: 'photo', category: 'Education', featured: 1, imageId: featured, description: 'Imported.' },
      { slug: 'health-fair', kind: 'photo', category: 'Health', featured: 0, imageId: photo, description: 'Imported.' },
    ])
    const articles = await db.selectFrom('articles').select('slug').orderBy('slug').execute()
    expect(articles.map((a) => a.slug)).toEqual(['annual-report', 'caption-without-picture', 'our-news'])
    await expect(sql`select category from articles`.execute(db)).rejects.toThrow(/category/)
  })
})
