import type { CompiledQuery } from 'kysely'
import { db, nowIso, type Db } from './db.server'

/**
 * A token that changes whenever anything a public page shows may have changed: the page cache
 * (server/page-cache.ts) keeps a page only as long as the token it was made with is current. It
 * lives in the database, so every process of the site sees a change at once. A random token
 * rather than a counter: a restored backup brings back an older token that no cached page has.
 */
const KEY = 'content-version'

// Read before every page answered from memory: built once instead of per request.
let versionQuery: CompiledQuery<{ value: string }> | undefined

export async function readContentVersion(executor: Db = db): Promise<string> {
  versionQuery ??= db.selectFrom('settings').select('value').where('key', '=', KEY).compile()
  const { rows } = await executor.executeQuery(versionQuery)
  return rows[0]?.value ?? 'none'
}

export async function markContentChanged(executor: Db = db): Promise<void> {
  const value = crypto.randomUUID()
  await executor
    .insertInto('settings')
    .values({ key: KEY, value, updatedAt: nowIso() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: nowIso() }))
    .execute()
}
