import { seedEvents } from '~/modules/events/events.demo.server'
import { seedGallery } from '~/modules/gallery/gallery.demo.server'
import { seedMarketplace } from '~/modules/marketplace/marketplace.demo.server'
import { seedNews } from '~/modules/news/news.demo.server'
import { seedPageContent } from '~/modules/pages/pages.service.server'
import { hasSiteSettings } from '~/modules/settings/settings.queries.server'
import { DEMO_SITE_SETTINGS } from '~/modules/settings/settings.demo'
import { seedSiteSettings } from '~/modules/settings/settings.service.server'
import { db } from '~/platform/db.server'
import { logger } from '~/platform/logger.server'
import { withMediaChange } from '~/platform/media/media-change.server'

/**
 * Fills a new site with the demo content (our first customer's story; clearly sample data that
 * an administrator edits or deletes). Runs at start-up after the migrations; does nothing once
 * site settings exist, so an administrator's changes are never overwritten.
 *
 * Each module contributes one `seed*` call below, made with the transaction (and the media
 * change, for stored files) so that a failed seed leaves nothing behind and is retried on the
 * next start.
 */
export async function seedDemoContentIfEmpty(): Promise<void> {
  if (await hasSiteSettings()) return
  const seeded = await withMediaChange((media) =>
    media.transaction(db, async (trx) => {
      // First: the settings row marks the site as seeded; a second process starting at the same time loses this insert.
      if (!(await seedSiteSettings(trx))) return false
      await seedPageContent(trx, media)
      await seedNews(trx, media)
      await seedEvents(trx, DEMO_SITE_SETTINGS)
      await seedGallery(trx, media)
      await seedMarketplace(trx, media)
      // All of it is sample content: marked for administrators (admin lists, dashboard), never in public text.
      for (const table of ['articles', 'mediaItems', 'products'] as const) {
        await trx.updateTable(table).set({ isSample: 1 }).execute()
      }
      return true
    }),
  )
  if (seeded) logger.info('demo content added to the new site')
}
