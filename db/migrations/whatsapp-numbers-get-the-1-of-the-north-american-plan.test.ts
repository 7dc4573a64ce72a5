import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { createMigrator } from '../migrate.server'
import { migrations } from './index'

const names = Object.keys(migrations).sort()
const beforeFix = names[names.indexOf('0015-whatsapp-numbers-of-the-north-american-plan') - 1]

afterAll(async () => {
  const { error } = await (await createMigrator()).migrateToLatest()
  if (error) throw error
})

const AT = '2026-03-01T10:00:00.000Z'

const STORED = {
  // Typed as dialled in Antigua and stored without the 1.
  antiguan: '2685557788',
  // Another area code of the plan, typed the same way.
  dominican: '7675550100',
  complete: '12685550100',
  british: '442079460958',
  // Ten digits, but no number of the plan (an area code starting with 1).
  other: '1685557788',
  none: '',
}

async function upgradeWith(settings: object | null): Promise<Record<string, string>> {
  const down = await (await createMigrator()).migrateTo(beforeFix)
  if (down.error) throw down.error
  await sql`delete from products`.execute(db)
  await sql`delete from settings`.execute(db)
  if (settings) {
    await sql`insert into settings (key, value, updated_at) values ('site', ${JSON.stringify(settings)}, ${AT})`.execute(db)
  }
  for (const [slug, number] of Object.entries(STORED)) {
    await sql`
      insert into products (id, slug, name, description, category, price_cents, seller, facebook_link, instagram_link, whatsapp_number, created_at, updated_at)
      values (${crypto.randomUUID()}, ${slug}, ${slug}, 'Made at home.', 'general', null, '', '', '', ${number}, ${AT}, ${AT})
    `.execute(db)
  }
  const up = await (await createMigrator()).migrateToLatest()
  if (up.error) throw up.error
  const rows = await db.selectFrom('products').select(['slug', 'whatsappNumber']).execute()
  return Object.fromEntries(rows.map((row) => [row.slug, row.whatsappNumber]))
}

describe('upgrading a site whose WhatsApp numbers were stored without the 1 of the North American plan', () => {
  it('gives 10-digit numbers of the plan their 1 on a site whose calling code is +1, and nothing else', async () => {
    const expected = { ...STORED, antiguan: '12685557788', dominican: '17675550100' }
    expect(await upgradeWith({ organisationName: 'Hope House', phoneCountryCode: '1268' })).toEqual(expected)
    // A new site's settings were never saved: its calling code is the default, +1 268.
    expect(await upgradeWith(null)).toEqual(expected)
  })

  it('leaves the numbers of a site outside the plan as they are', async () => {
    expect(await upgradeWith({ organisationName: 'Hope House', phoneCountryCode: '44' })).toEqual(STORED)
    expect(await upgradeWith({ organisationName: 'Hope House', phoneCountryCode: '' })).toEqual(STORED)
  })
})
