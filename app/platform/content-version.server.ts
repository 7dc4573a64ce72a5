import type { CompiledQuery } from 'kysely'
import { db, nowIso, type Db } from './db.server'
import { nextPublishAt } from './publication.server'

/**
 * A token that changes whenever anything a public page shows may have changed: the page cache
 * (server/page-cache.ts) keeps a page only as long as the token it was made with is current. It
 * lives in the database, so every process of the site sees a change at once. A random token
 * rather than a counter: a restored backup brings back an older token that no cached page has.
 *
 * Beside it lies the next time a scheduled item goes public: the first process to read the
 * token after that time renews it (once, for all processes), so scheduled items appear on time.
 */
const KEY = 'content-version'
const NEXT_PUBLISH_KEY = 'next-publish-at'

// Read before every page answered from memory: built once instead of per request.
let versionQuery: CompiledQuery<{ key: string; value: string }> | undefined

export async function readContentVersion(executor: Db = db): Promise<string> {
  versionQuery ??= db.selectFrom('settings').select(['key', 'value']).where('key', 'in', [KEY, NEXT_PUBLISH_KEY]).compile()
  // Twice at most: after a renewal the next publish time lies ahead (or another process renewed it).
  for (let tries = 1; ; tries++) {
    const { rows } = await executor.executeQuery(versionQuery)
    const version = rows.find((row) => row.key === KEY)?.value ?? 'none'
    const nextPublish = rows.find((row) => row.key === NEXT_PUBLISH_KEY)?.value ?? ''
    if (nextPublish === '' || nextPublish > nowIso() || tries > 2) return version
    await renewWhenDue(executor, nextPublish)
  }
}

/** Renews the token for an item whose publish time has come, unless another process did so first. */
async function renewWhenDue(executor: Db, due: string): Promise<void> {
  const next = (await nextPublishAt(executor)) ?? ''
  const { numUpdatedRows } = await executor
    .updateTable('settings')
    .set({ value: next, updatedAt: nowIso() })
    .where('key', '=', NEXT_PUBLISH_KEY)
    .where('value', '=', due)
    .executeTakeFirst()
  if (numUpdatedRows > 0n) await writeVersion(executor)
}

export async function markContentChanged(executor: Db = db): Promise<void> {
  await writeVersion(executor)
  await writeSetting(executor, NEXT_PUBLISH_KEY, (await nextPublishAt(executor)) ?? '')
}

function writeVersion(executor: Db): Promise<void> {
  return writeSetting(executor, KEY, crypto.randomUUID())
}

async function writeSetting(executor: Db, key: string, value: string): Promise<void> {
  await executor
    .insertInto('settings')
    .values({ key, value, updatedAt: nowIso() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: nowIso() }))
    .execute()
}
