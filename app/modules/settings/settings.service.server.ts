import { db, nowIso, type Db } from '~/platform/db.server'
import { logger } from '~/platform/logger.server'
import { DEMO_SITE_SETTINGS } from './settings.demo'
import { SITE_SETTINGS_KEY } from './settings.queries.server'
import { SiteSettingsSchema, type SiteSettings, type SiteSettingsInput } from './settings.schema'

/** Validates and stores the whole settings document; throws a ZodError and stores nothing when invalid. */
export async function saveSiteSettings(input: SiteSettingsInput, { actor }: { actor: { id: string } }) {
  const settings: SiteSettings = SiteSettingsSchema.parse(input)
  const now = nowIso()
  const value = JSON.stringify(settings)
  await db
    .insertInto('settings')
    .values({ key: SITE_SETTINGS_KEY, value, updatedAt: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: now }))
    .execute()
  logger.info({ actorId: actor.id }, 'site settings saved')
  return settings
}

/**
 * Stores the settings of a new site (the demo's unless given) unless settings exist. Returns true when it wrote them: the demo
 * seed uses the settings row as its "already seeded" marker, and a concurrent second process
 * that loses this insert skips the rest of the seed.
 */
export async function seedSiteSettings(executor: Db = db, settings: SiteSettings = DEMO_SITE_SETTINGS): Promise<boolean> {
  const inserted = await executor
    .insertInto('settings')
    .values({ key: SITE_SETTINGS_KEY, value: JSON.stringify(settings), updatedAt: nowIso() })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst()
  return inserted !== undefined
}
