import path from 'node:path'
import type SQLite from 'better-sqlite3'
import { CompiledQuery } from 'kysely'
import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterStoreAbstract } from 'rate-limiter-flexible'
import { db, dialectName, openSqliteFile } from './db.server'
import { env } from './env.server'
import { logger } from './logger.server'
import { retryWhileBusy } from './sqlite-driver.server'

/**
 * Attempt counters shared by every app process: they live in the database (`rate_limits`), not
 * in one process's memory; only a refusal may be remembered there (`refuseFromMemory`).
 */
export type RateLimitVerdict = { limited: false } | { limited: true; retryAfterSeconds: number }

export interface RateLimiter {
  /** Counts one attempt; limited when this attempt is over the budget. */
  hit(key: string): Promise<RateLimitVerdict>
  /** Takes back one counted attempt (e.g. one that turned out to be legitimate). */
  refund(key: string): Promise<void>
  /** Forgets the key's attempts (e.g. after a successful sign-in). */
  reset(key: string): Promise<void>
  /**
   * Seconds left on a refusal this process already knows of, without asking the database; 0
   * when it knows of none. Always 0 without `refuseFromMemory`.
   */
  knownRefusalSeconds(key: string): number
}

export interface RateLimitOptions {
  /** Attempts allowed per window. */
  attempts: number
  windowSeconds: number
  /**
   * Once a key is over its budget, this process refuses it from memory until its window ends,
   * without writing to the database: a flood of refused attempts then costs almost nothing.
   * Only `reset` through this process lifts that early (not `refund`, nor a change made to the
   * table elsewhere), so it suits limits that nothing else lifts while they hold.
   */
  refuseFromMemory?: boolean
}

const TABLE = 'rate_limits'
let sqliteClient: SQLite.Database | undefined

/**
 * The library's SQLite store sweeps old counters every 5 minutes, and a sweep that fails (another
 * process holds the write lock) would be an unhandled rejection that ends the process. This one
 * waits for the lock like every other write, and logs what still fails.
 */
class SqliteStore extends RateLimiterSQLite {
  clearExpired(nowMs: number): Promise<void> {
    const sweep = (RateLimiterSQLite.prototype as unknown as { clearExpired(nowMs: number): Promise<void> }).clearExpired
    return retryWhileBusy(() => sweep.call(this, nowMs)).catch((error: unknown) => {
      logger.warn({ err: error }, 'expired rate-limit counters could not be removed')
    })
  }
}

function createStore(name: string, options: RateLimitOptions): RateLimiterStoreAbstract {
  const common = {
    keyPrefix: name,
    points: options.attempts,
    duration: options.windowSeconds,
    tableName: TABLE,
    tableCreated: true, // created by a migration
    clearExpiredByTimeout: true,
    // rate-limiter-flexible's own guard: over the budget, the key is refused for the rest of its window.
    inMemoryBlockOnConsumed: options.refuseFromMemory ? options.attempts + 1 : 0,
  }
  if (dialectName === 'postgres') {
    return new RateLimiterPostgres({ ...common, storeType: 'pool', storeClient: postgresClientOverKysely })
  }
  // better-sqlite3 is synchronous, so the store needs its own handle; WAL lets it share the file.
  sqliteClient ??= openSqliteFile(path.join(env.dataDir, 'site.db'))
  return new SqliteStore({ ...common, storeType: 'better-sqlite3', storeClient: sqliteClient })
}

/** The part of a pg pool the PostgreSQL store uses, served by the app's own Kysely pool. */
const postgresClientOverKysely = {
  async query({ text, values }: { text: string; values?: unknown[] }) {
    const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []))
    return { rows: result.rows, rowCount: Number(result.numAffectedRows ?? result.rows.length) }
  },
}

function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/** A named limiter: `name` keeps its keys apart from other limiters' in the shared table. */
export function createRateLimiter(name: string, options: RateLimitOptions): RateLimiter {
  let store: RateLimiterStoreAbstract | undefined
  const getStore = () => (store ??= createStore(name, options))
  // The SQLite store's statements find the database locked while another connection writes: they wait for it.
  return {
    async hit(key) {
      try {
        await retryWhileBusy(() => getStore().consume(key))
        return { limited: false }
      } catch (error) {
        // The library rejects with a RateLimiterRes when over budget, and with an Error when the store fails.
        if (error instanceof RateLimiterRes) return { limited: true, retryAfterSeconds: retryAfterSeconds(error.msBeforeNext) }
        throw error
      }
    },
    async refund(key) {
      await retryWhileBusy(() => getStore().reward(key, 1))
    },
    async reset(key) {
      await retryWhileBusy(() => getStore().delete(key))
    },
    knownRefusalSeconds(key) {
      if (!store) return 0
      // Public in the library (it checks this before each consume) but missing from its types.
      const blocks = store as unknown as { getInMemoryBlockMsBeforeExpire(storeKey: string): number }
      const ms = blocks.getInMemoryBlockMsBeforeExpire(store.getKey(key))
      return ms > 0 ? retryAfterSeconds(ms) : 0
    },
  }
}

/** How long to wait, as a person reads it: "1 minute", "15 minutes". */
export function minutesToWait(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

/** Headers for a 429 answer. */
export function retryAfterHeaders(verdict: { retryAfterSeconds: number }): HeadersInit {
  return { 'Retry-After': String(verdict.retryAfterSeconds) }
}

export function closeRateLimiters(): void {
  sqliteClient?.close()
  sqliteClient = undefined
}
