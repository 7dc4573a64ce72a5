import { seedEvents } from '~/modules/events/events.demo.server'
import { seedGallery } from '~/modules/gallery/gallery.demo.server'
import { seedMarketplace } from '~/modules/marketplace/marketplace.demo.server'
import { seedNews } from '~/modules/news/news.demo.server'
import { placeholderPageContent } from '~/modules/pages/pages.placeholder'
import { seedPageContent } from '~/modules/pages/pages.service.server'
import type { SiteStart } from '~/modules/setup/setup.schema'
import { hasSiteSettings } from '~/modules/settings/settings.queries.server'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import type { SiteSettings } from '~/modules/settings/settings.schema'
import { seedSiteSettings } from '~/modules/settings/settings.service.server'
import { db, type Db } from '~/platform/db.server'
import { logger } from '~/platform/logger.server'
import { withMediaChange, type MediaChange } from '~/platform/media/media-change.server'

/**
 * Fills a new site: with the demo content (our first customer's story; clearly sample data that an
 * administrator edits or deletes), or empty, with the pages' placeholder texts. Does nothing once
 * site settings exist, so an administrator's changes are never overwritten; returns whether it wrote.
 *
 * Each module contributes one `seed*` call below, made with the caller's transaction (and the media
 * change, for stored files) so that a failed seed leaves nothing behind.
 */
export async function seedNewSite(
  trx: Db,
  media: MediaChange,
  { start, settings }: { start: SiteStart; settings: SiteSettings },
): Promise<boolean> {
  // First: the settings row marks the site as seeded; a second process starting at the same time loses this insert.
  if (!(await seedSiteSettings(trx, settings))) return false
  if (start === 'empty') {
    await seedPageContent(trx, undefined, placeholderPageContent)
    return true
  }
  await seedPageContent(trx, media)
  await seedNews(trx, media)
  await seedEvents(trx, settings)
  await seedGallery(trx, media)
  await seedMarketplace(trx, media)
  // All of it is sample content: marked for administrators (admin lists, dashboard), never in public text.
  for (const table of ['articles', 'mediaItems', 'products'] as const) {
    await trx.updateTable(table).set({ isSample: 1 }).execute()
  }
  return true
}

/** A server set up from its environment (ADMIN_EMAIL) starts with the demo content, retried at the next start if it failed. */
export async function seedDemoContentIfEmpty(): Promise<void> {
  if (await hasSiteSettings()) return
  const seeded = await withMediaChange((media) =>
    media.transaction(db, (trx) => seedNewSite(trx, media, { start: 'demo', settings: DEMO_SITE_SETTINGS })),
  )
  if (seeded) logger.info('demo content added to the new site')
}
