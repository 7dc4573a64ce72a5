import { db, nowIso, type Db } from '~/platform/db.server'
import { demoPageContent } from './pages.demo'
import { PAGE_KEYS, PageContentSchemas, type PageContent, type PageKey } from './pages.schema'

/** Validates and stores a page's texts; throws (a ZodError) and stores nothing when the document is invalid. */
export async function savePageContent<K extends PageKey>(key: K, input: unknown): Promise<PageContent[K]> {
  const content = PageContentSchemas[key].parse(input) as PageContent[K]
  const row = { key, content: JSON.stringify(content), updatedAt: nowIso() }
  await db
    .insertInto('pageSections')
    .values(row)
    .onConflict((oc) => oc.column('key').doUpdateSet({ content: row.content, updatedAt: row.updatedAt }))
    .execute()
  return content
}

/** Stores the demo texts for every page that has none yet (never overwrites an admin's edits). */
export async function seedPageContent(executor: Db = db): Promise<void> {
  const updatedAt = nowIso()
  await executor
    .insertInto('pageSections')
    .values(PAGE_KEYS.map((key) => ({ key, content: JSON.stringify(demoPageContent[key]), updatedAt })))
    .onConflict((oc) => oc.column('key').doNothing())
    .execute()
}
