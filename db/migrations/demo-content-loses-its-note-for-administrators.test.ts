import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { createMigrator } from '../migrate.server'
import { migrations } from './index'

const names = Object.keys(migrations).sort()
const beforeSampleFlag = names[names.indexOf('0018-sample-content') - 1]

afterAll(async () => {
  const { error } = await (await createMigrator()).migrateToLatest()
  if (error) throw error
})

const AT = '2026-03-01T10:00:00.000Z'
const PRODUCT_NOTE =
  'This is a sample product that comes with a new site; a marketplace manager can edit or delete it under Admin → Products.'
const EVENT_NOTE =
  'This is a sample event that comes with a new site. An administrator can edit or delete it under Admin → Events.'
const ARTICLE_NOTE =
  '*This is a sample article that comes with a new site. An administrator can edit or delete it under Admin → News.*'

describe('upgrading a site seeded with demo content that told visitors how to delete it', () => {
  it('marks the demo rows as sample and takes the sentence out of their text; the site’s own rows stay as they are', async () => {
    const down = await (await createMigrator()).migrateTo(beforeSampleFlag)
    if (down.error) throw down.error
    await sql`delete from product_images`.execute(db)
    await sql`delete from products`.execute(db)
    await sql`delete from articles`.execute(db)
    await sql`delete from events`.execute(db)
    await sql`
      insert into events (id, slug, title, description, location, type, all_day, starts_at, ends_at, repeat, created_at, updated_at)
      values (${crypto.randomUUID()}, 'demo', 'Demo', ${`Everyone is welcome.\n\n${EVENT_NOTE}`}, 'Hall', 'general', 0, ${AT}, null, 'none', ${AT}, ${AT})`.execute(
      db,
    )
    const product = (slug: string, description: string) => sql`
      insert into products (id, slug, name, description, category, price_cents, seller, facebook_link, instagram_link, whatsapp_number, created_at, updated_at)
      values (${crypto.randomUUID()}, ${slug}, ${slug}, ${description}, 'general', null, '', '', '', '', ${AT}, ${AT})`
    await product('demo', `Fresh every Saturday.\nAsk for a slice.\n\n${PRODUCT_NOTE}`).execute(db)
    await product('own', 'Made at home.').execute(db)
    await sql`
      insert into articles (id, slug, title, content, image_id, created_at, updated_at)
      values (${crypto.randomUUID()}, 'demo', 'Demo', ${`## Help\n\nBring food.\n\n${ARTICLE_NOTE}`}, null, ${AT}, ${AT})`.execute(
      db,
    )

    const up = await (await createMigrator()).migrateToLatest()
    if (up.error) throw up.error
    const products = await db.selectFrom('products').select(['slug', 'description', 'isSample']).orderBy('slug').execute()
    expect(products).toEqual([
      { slug: 'demo', description: 'Fresh every Saturday.\nAsk for a slice.', isSample: 1 },
      { slug: 'own', description: 'Made at home.', isSample: 0 },
    ])
    expect(await db.selectFrom('articles').select(['content', 'isSample']).execute()).toEqual([
      { content: '## Help\n\nBring food.', isSample: 1 },
    ])
    expect(await db.selectFrom('events').select(['description', 'isSample']).execute()).toEqual([
      { description: 'Everyone is welcome.', isSample: 1 },
    ])
  })
})
