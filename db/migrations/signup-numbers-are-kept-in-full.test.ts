import { afterAll, describe, expect, it } from 'vitest'
import { db } from '~/platform/db.server'
import { createWeeklyEvent } from '../../tests/fixtures/weekly-event'
import { createMigrator } from '../migrate.server'
import { migrations } from './index'

const names = Object.keys(migrations).sort()
const beforeFix = names[names.indexOf('0031-signup-numbers-in-full') - 1]

afterAll(async () => {
  const { error } = await (await createMigrator()).migrateToLatest()
  if (error) throw error
})

// As the sign-up form kept them: the digits typed, with the '+' if there was one.
const KEPT = {
  international: '+12685550101',
  antiguanLocal: '5550102',
  antiguanWithArea: '2685550103',
  dialledAbroad: '0044207946095',
  british: '+442079460958',
  // The same person as `international`, who signed up first, typed another way.
  sameAsInternational: '2685550101',
  // Typed in full already (with its 1, without '+'), later than a sign-up that becomes the same.
  fullBefore: '+12685550104',
  fullAfter: '12685550104',
}

describe('upgrading a site whose sign-ups kept WhatsApp numbers as typed', () => {
  it('keeps every number in full, read as dialled at the site, and makes the later of two sign-ups of one person a repeat', async () => {
    const { id: eventId } = await createWeeklyEvent('2026-03-07', { takesSignups: true, signupContact: 'whatsapp' })
    const down = await (await createMigrator()).migrateTo(beforeFix)
    if (down.error) throw down.error
    for (const [minute, [name, whatsapp]] of Object.entries(KEPT).entries()) {
      await db
        .insertInto('eventSignups')
        .values({
          id: crypto.randomUUID(),
          eventId,
          date: '2026-03-07',
          name,
          email: null,
          whatsapp,
          partySize: 1,
          status: 'confirmed',
          cancelToken: crypto.randomUUID(),
          siteOrigin: 'https://charity.example',
          createdAt: `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
          promotedAt: null,
          reminderQueuedAt: null,
        })
        .execute()
    }
    const up = await (await createMigrator()).migrateToLatest()
    if (up.error) throw up.error
    const rows = await db.selectFrom('eventSignups').select(['name', 'whatsapp']).where('eventId', '=', eventId).execute()
    expect(Object.fromEntries(rows.map((row) => [row.name, row.whatsapp]))).toEqual({
      international: '12685550101',
      antiguanLocal: '12685550102',
      antiguanWithArea: '12685550103',
      dialledAbroad: '44207946095',
      british: '442079460958',
      fullBefore: '12685550104',
    })
    // The repeats keep their page and their link to cancel, and hold no place.
    const repeats = await db.selectFrom('repeatedSignups').select('name').where('eventId', '=', eventId).orderBy('name').execute()
    expect(repeats.map((row) => row.name)).toEqual(['fullAfter', 'sameAsInternational'])
  })
})
