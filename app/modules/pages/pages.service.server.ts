import fs from 'node:fs'
import path from 'node:path'
import { db, lockForUpdate, nowIso, type Db } from '~/platform/db.server'
import { withMediaChange, type MediaChange } from '~/platform/media/media-change.server'
import { demoPageContent } from './pages.demo'
import { PAGE_KEYS, PageContentSchemas, type HeroImageInput, type PageContent, type PageKey } from './pages.schema'

/**
 * Validates and stores a page's texts; throws (a ZodError) and stores nothing when the document is
 * invalid. With `heroImage` (the form's image fields) the hero photograph is replaced or removed in
 * the same change; an unusable image throws MediaRejectedError and nothing is saved.
 */
export async function savePageContent<K extends PageKey>(
  key: K,
  input: unknown,
  heroImage?: HeroImageInput,
): Promise<PageContent[K]> {
  const content = PageContentSchemas[key].parse(input) as PageContent[K]
  const row = { key, content: JSON.stringify(content), updatedAt: nowIso() }
  if (!heroImage) {
    await db
      .insertInto('pageSections')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ content: row.content, updatedAt: row.updatedAt }))
      .execute()
    return content
  }
  await withMediaChange(async (media) => {
    const upload = heroImage.image ? await media.storeImage(heroImage.image, 'hero') : null
    await media.transaction(db, async (trx) => {
      // Locked, so that two saves at once replace the photograph one after the other.
      const current = await lockForUpdate(
        trx.selectFrom('pageSections').select('heroImageId').where('key', '=', key),
      ).executeTakeFirst()
      const heroImageId = await media.replace(trx, current?.heroImageId ?? null, {
        upload,
        remove: heroImage.removeImage,
        alt: heroImage.imageAlt,
      })
      await trx
        .insertInto('pageSections')
        .values({ ...row, heroImageId })
        .onConflict((oc) => oc.column('key').doUpdateSet({ content: row.content, heroImageId, updatedAt: row.updatedAt }))
        .execute()
    })
  })
  return content
}

/** Photographs from Debian's mate-backgrounds (see db/demo-media/LICENSE.md) behind the demo heroes. */
const DEMO_HERO_PHOTOS: Partial<Record<PageKey, { file: string; alt: string }>> = {
  home: { file: 'dune.jpg', alt: 'Dune grass by the sea under a blue sky' },
  about: { file: 'garden.jpg', alt: 'A red and yellow flower in a garden' },
  services: { file: 'green-meadow.jpg', alt: 'Young green shoots of grass' },
  support: { file: 'yellow-flower.jpg', alt: 'A bright yellow flower' },
  impact: { file: 'lady-bird.jpg', alt: 'A ladybird on a stem among small blue flowers' },
}

/**
 * Stores the texts for every page that has none yet (never overwrites an admin's edits): the demo's,
 * or another start's. Inside the seed's media change it also puts the demo photographs behind the heroes.
 */
export async function seedPageContent(
  executor: Db = db,
  media?: MediaChange,
  content: PageContent = demoPageContent,
): Promise<void> {
  const updatedAt = nowIso()
  const heroImageIds = new Map<PageKey, string>()
  if (media) {
    const existing = new Set((await executor.selectFrom('pageSections').select('key').execute()).map((r) => r.key))
    for (const [key, photo] of Object.entries(DEMO_HERO_PHOTOS) as [PageKey, { file: string; alt: string }][]) {
      if (existing.has(key)) continue
      const source = fs.readFileSync(path.resolve('db/demo-media', photo.file))
      const stored = await media.storeImage(new Blob([new Uint8Array(source)]), 'hero')
      heroImageIds.set(key, await media.attach(executor, stored, photo.alt))
    }
  }
  await executor
    .insertInto('pageSections')
    .values(
      PAGE_KEYS.map((key) => ({
        key,
        content: JSON.stringify(content[key]),
        heroImageId: heroImageIds.get(key) ?? null,
        updatedAt,
      })),
    )
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
}
