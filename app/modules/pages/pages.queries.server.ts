import { db } from '~/platform/db.server'
import { cachedUntilContentChanges, type Shared } from '~/platform/content-cache.server'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { getImagesByIds, toResponsiveImage } from '~/platform/media/images.server'
import { logger } from '~/platform/logger.server'
import { demoPageContent } from './pages.demo'
import { PAGE_KEYS, PageContentSchemas, type PageContent, type PageKey } from './pages.schema'

/**
 * A page's texts for visitors and for the editor. A page that has never been saved shows the
 * demo texts; a stored document missing a field (saved before the field existed) gets the
 * demo text for just that field; a document that still does not validate is replaced by the
 * demo texts rather than breaking the page.
 */
export async function getPageContent<K extends PageKey>(key: K): Promise<PageContent[K]> {
  const row = await db.selectFrom('pageSections').select(['content']).where('key', '=', key).executeTakeFirst()
  if (!row) return demoPageContent[key]
  const parsed = PageContentSchemas[key].safeParse(withDefaults(parseJson(row.content), demoPageContent[key]))
  if (parsed.success) return parsed.data as PageContent[K]
  logger.warn({ key, issues: parsed.error.issues }, 'stored page texts are invalid; showing the demo texts')
  return demoPageContent[key]
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Fills fields missing from a stored document with the defaults; stored values always win. */
function withDefaults(stored: unknown, defaults: unknown): unknown {
  if (stored === undefined) return defaults
  if (!isPlainObject(stored) || !isPlainObject(defaults)) return stored
  const merged: Record<string, unknown> = { ...stored }
  for (const [key, value] of Object.entries(defaults)) merged[key] = withDefaults(stored[key], value)
  return merged
}

/** The photograph behind a page's hero, or null (the hero then shows its gradient). */
export async function getPageHeroImage(key: PageKey): Promise<ResponsiveImageData | null> {
  const row = await db.selectFrom('pageSections').select('heroImageId').where('key', '=', key).executeTakeFirst()
  if (!row?.heroImageId) return null
  const image = (await getImagesByIds([row.heroImageId])).get(row.heroImageId)
  return image ? toResponsiveImage(image) : null
}

export interface PublicPage<K extends PageKey> {
  content: PageContent[K]
  heroImage: ResponsiveImageData | null
}

// Read by every visitor of the page, the same for all: cached until the content changes. A copy:
// the demo texts stay the module's own.
const cachedPublicPage = cachedUntilContentChanges(async (key) => {
  const [content, heroImage] = await Promise.all([getPageContent(key as PageKey), getPageHeroImage(key as PageKey)])
  return { content: structuredClone(content), heroImage }
}, PAGE_KEYS.length)

/** A page's texts and hero as visitors see them. */
export function getPublicPage<K extends PageKey>(key: K): Promise<Shared<PublicPage<K>>> {
  return cachedPublicPage(key) as Promise<Shared<PublicPage<K>>>
}
