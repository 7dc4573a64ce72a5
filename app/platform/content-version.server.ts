import type { CompiledQuery } from 'kysely'
import { db, nowIso, type Db } from './db.server'
import { logger } from './logger.server'
import { nextPublishAt } from './publication.server'

/**
 * A token that changes whenever anything a public page shows may have changed: the page cache
 * (server/page-cache.ts) keeps a page only as long as the token it was made with is current. It
 * lives in the database, so every process of the site sees a change at once. A random token
 * rather than a counter: a restored backup brings back an older token that no cached page has.
 *
 * Beside it lies the time the token is due for renewal: the next time a scheduled item goes public,
 * or a time long past once anything a public page shows was written. The first process to read the
 * token after that time renews it (once, for all processes), so changes and scheduled items show.
 */
const KEY = 'content-version'
const NEXT_PUBLISH_KEY = 'next-publish-at'
/**
 * The renewal time that a write to a table public pages show sets, in its own transaction
 * (db/migrations/0028-content-changes-renew-the-content-version.ts): the next reader renews the token.
 */
const DUE = '1970-01-01T00:00:00.000Z'

// Read before every page answered from memory: built once instead of per request.
let versionQuery: CompiledQuery<{ key: string; value: string }> | undefined

export async function readContentVersion(executor: Db = db): Promise<string> {
  versionQuery ??= db.selectFrom('settings').select(['key', 'value']).where('key', 'in', [KEY, NEXT_PUBLISH_KEY]).compile()
  // Twice at most: after a renewal the next publish time lies ahead (or another process renewed it).
  for (let tries = 1; ; tries++) {
    const { rows } = await executor.executeQuery(versionQuery)
    const version = rows.find((row) => row.key === KEY)?.value ?? 'none'
    const nextPublish = rows.find((row) => row.key === NEXT_PUBLISH_KEY)?.value
    const current = nextPublish !== undefined && (nextPublish === '' || nextPublish > nowIso())
    if (current || tries > 2) return version
    if (!(await renewedWhenDue(executor, nextPublish ?? null))) return version
  }
}

let renewalFailing = false

/**
 * Renews the token when due, or says it could not: a database that cannot be written (read-only,
 * or locked past the busy timeout) must not stop the site from answering. Its pages then keep
 * the stored token until a renewal succeeds, which is no change at all for a read-only site.
 */
async function renewedWhenDue(executor: Db, due: string | null): Promise<boolean> {
  try {
    await renewWhenDue(executor, due)
    renewalFailing = false
    return true
  } catch (error) {
    if (executor.isTransaction) throw error
    if (!renewalFailing) logger.warn({ err: error }, 'the content version could not be renewed; pages keep the current one')
    renewalFailing = true
    return false
  }
}

/**
 * Renews the token when it is due (a change, or an item whose publish time has come), unless
 * another process did so first. A site without the renewal time yet (new, or restored from a
 * backup made before it existed) gets it here, which the triggers then find.
 */
async function renewWhenDue(executor: Db, due: string | null): Promise<void> {
  const inTransaction = (work: (trx: Db) => Promise<void>) =>
    executor.isTransaction ? work(executor) : executor.transaction().execute(work)
  await inTransaction(async (trx) => {
    // The claim comes first: on PostgreSQL it locks the row, so a change whose trigger writes it
    // waits, and the next publish time below is read after every change that made it due.
    const claim =
      due === null
        ? trx
            .insertInto('settings')
            .values({ key: NEXT_PUBLISH_KEY, value: DUE, updatedAt: nowIso() })
            .onConflict((oc) => oc.column('key').doNothing())
        : trx.updateTable('settings').set({ updatedAt: nowIso() }).where('key', '=', NEXT_PUBLISH_KEY).where('value', '=', due)
    const { numInsertedOrUpdatedRows } = normalise(await claim.executeTakeFirst())
    if (numInsertedOrUpdatedRows === 0n) return
    await writeSetting(trx, NEXT_PUBLISH_KEY, (await nextPublishAt(trx)) ?? '')
    await writeSetting(trx, KEY, crypto.randomUUID())
  })
}

function normalise(result: { numInsertedOrUpdatedRows?: bigint; numUpdatedRows?: bigint }): { numInsertedOrUpdatedRows: bigint } {
  return { numInsertedOrUpdatedRows: result.numInsertedOrUpdatedRows ?? result.numUpdatedRows ?? 0n }
}

/**
 * For a change that is no row of the tables public pages show (a date of an event becoming
 * full, counted from its sign-ups): the token is renewed by its next reader, as after any change.
 */
export async function markContentChanged(executor: Db = db): Promise<void> {
  await writeSetting(executor, NEXT_PUBLISH_KEY, DUE)
}

async function writeSetting(executor: Db, key: string, value: string): Promise<void> {
  await executor
    .insertInto('settings')
    .values({ key, value, updatedAt: nowIso() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: nowIso() }))
    .execute()
}
