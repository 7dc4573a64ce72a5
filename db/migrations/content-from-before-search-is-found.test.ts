import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { searchSite } from '~/modules/search/search.queries.server'
import { db } from '~/platform/db.server'
import { createMigrator } from '../migrate.server'
import { migrations } from './index'

const names = Object.keys(migrations).sort()
const beforeSearch = names[names.indexOf('0022-site-search') - 1]

afterAll(async () => {
  const { error } = await (await createMigrator()).migrateToLatest()
  if (error) throw error
})

const AT = '2026-03-01T10:00:00.000Z'

describe('upgrading a site to the search', () => {
  it('finds the articles, gallery items, events and products it had before', async () => {
    const down = await (await createMigrator()).migrateTo(beforeSearch)
    if (down.error) throw down.error
    for (const table of ['product_images', 'products', 'articles', 'events', 'media_items'])
      await sql`delete from ${sql.table(table)}`.execute(db)
    await sql`insert into articles (id, slug, title, content, image_id, created_at, updated_at, publish_at)
      values (${crypto.randomUUID()}, 'harvest', 'Harvest Supper', 'Soup and bread for the whole street.', null, ${AT}, ${AT}, ${AT})`.execute(
      db,
    )
    await sql`insert into events (id, slug, title, description, location, type, all_day, starts_at, ends_at, repeat, created_at, updated_at, publish_at)
      values (${crypto.randomUUID()}, 'choir', 'Choir Practice', 'Songs for the harvest.', 'Chapel', 'general', 0, ${AT}, null, 'none', ${AT}, ${AT}, ${AT})`.execute(
      db,
    )
    await sql`insert into products (id, slug, name, description, category, price_cents, seller, facebook_link, instagram_link, whatsapp_number, created_at, updated_at, publish_at)
      values (${crypto.randomUUID()}, 'jam', 'Harvest Jam', 'Plums from the garden.', 'general', null, '', '', '', '', ${AT}, ${AT}, ${AT})`.execute(
      db,
    )
    await sql`insert into media_items (id, slug, kind, title, description, category, featured, image_id, video_id, created_at, updated_at, publish_at)
      values (${crypto.randomUUID()}, 'table', 'photo', 'The Long Table', 'Neighbours at the harvest supper.', 'Events', 0, null, null, ${AT}, ${AT}, ${AT})`.execute(
      db,
    )

    const up = await (await createMigrator()).migrateToLatest()
    if (up.error) throw up.error
    const found = await searchSite('harvest', 1)
    expect(found.results.map((r) => r.href).sort()).toEqual([
      '/calendar/choir',
      '/marketplace/jam',
      '/news/harvest',
      '/photos/table',
    ])
    expect((await searchSite('chapel', 1)).results.map((r) => r.href)).toEqual(['/calendar/choir'])
  })

  it('shows a gallery video only once it is converted, as the gallery does', async () => {
    const videoId = crypto.randomUUID()
    await sql`insert into videos (id, status, filename, original_format, created_at, updated_at)
      values (${videoId}, 'processing', 'dance.mp4', 'mp4', ${AT}, ${AT})`.execute(db)
    await sql`insert into media_items (id, slug, kind, title, description, category, featured, image_id, video_id, created_at, updated_at, publish_at)
      values (${crypto.randomUUID()}, 'dance', 'video', 'Harvest Dance', '', 'Events', 0, null, ${videoId}, ${AT}, ${AT}, ${AT})`.execute(
      db,
    )
    try {
      expect((await searchSite('dance', 1)).results).toEqual([])
      await sql`update videos set status = 'ready' where id = ${videoId}`.execute(db)
      expect((await searchSite('dance', 1)).results.map((r) => r.href)).toEqual(['/photos/dance'])
    } finally {
      await sql`delete from media_items where slug = 'dance'`.execute(db)
      await sql`delete from videos where id = ${videoId}`.execute(db)
    }
  })
})
