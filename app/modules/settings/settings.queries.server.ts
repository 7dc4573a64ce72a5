import { db } from '~/platform/db.server'
import { headerSafe } from '~/platform/email.server'
import { env } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { DEFAULT_SITE_SETTINGS } from './settings.defaults'
import { SiteSettingsSchema, type SiteSettings } from './settings.schema'

/** The row of the `settings` table that holds the site settings as JSON. */
export const SITE_SETTINGS_KEY = 'site'

/**
 * The site settings, with defaults for anything missing. Each field is read on its own, so a
 * value written by an older version that no longer validates falls back to its default
 * without taking the other settings with it.
 */
export async function getSiteSettings(): Promise<SiteSettings> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', SITE_SETTINGS_KEY).executeTakeFirst()
  if (!row) return structuredClone(DEFAULT_SITE_SETTINGS)
  // Read for every page the server draws, changed rarely: checked once per stored text.
  if (row.value !== lastRead?.text) lastRead = { text: row.value, settings: parseStoredSettings(row.value) }
  return structuredClone(lastRead.settings)
}

/**
 * Who the site's e-mails come from: `SMTP_FROM`, or the site's own address under its name; null
 * when neither is set.
 */
export async function getSiteSender(): Promise<string | { name: string; address: string } | null> {
  if (env.SMTP_FROM) return env.SMTP_FROM
  const settings = await getSiteSettings()
  return settings.email ? { name: headerSafe(`${settings.organisationName} website`), address: settings.email } : null
}

let lastRead: { text: string; settings: SiteSettings } | undefined

function parseStoredSettings(text: string): SiteSettings {
  let stored: Record<string, unknown>
  try {
    stored = JSON.parse(text)
  } catch (error) {
    logger.error({ err: error }, 'stored site settings are not valid JSON; using defaults')
    return structuredClone(DEFAULT_SITE_SETTINGS)
  }
  const settings = structuredClone(DEFAULT_SITE_SETTINGS) as Record<string, unknown>
  for (const [key, schema] of Object.entries(SiteSettingsSchema.shape)) {
    if (!(key in stored)) continue
    const parsed = schema.safeParse(stored[key])
    if (parsed.success) settings[key] = parsed.data
    else logger.warn({ key }, 'a stored site setting is invalid; using its default')
  }
  return settings as SiteSettings
}

/** True once site settings have been saved (by the demo seed or an administrator). */
export async function hasSiteSettings(): Promise<boolean> {
  const row = await db.selectFrom('settings').select('key').where('key', '=', SITE_SETTINGS_KEY).executeTakeFirst()
  return row !== undefined
}
