import type SQLite from 'better-sqlite3'
import { CompiledQuery, SelectQueryNode, type DatabaseConnection, type Driver, type QueryResult } from 'kysely'

/**
 * SQLite lets one connection write at a time; another process (a second server, the admin
 * command line, a backup) may hold the write lock. better-sqlite3 is synchronous, so SQLite's own
 * busy timeout would wait with the whole process stopped: no page, no health check. Its busy
 * timeout is therefore 0 (see db.server.ts), and a statement refused with SQLITE_BUSY is tried
 * again after a pause in which the event loop runs. See docs/decisions/010-sqlite-locks.md.
 */

/** How long a write waits for another connection's write lock before it fails. */
export const LOCK_WAIT_MS = 10_000
const FIRST_PAUSE_MS = 5
const LONGEST_PAUSE_MS = 100

export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY')
}

export interface BusyWaitOptions {
  /** How long to keep trying. */
  waitMs?: number
  /** False when trying again would be wrong (the statement ran inside a transaction). */
  canRetry?: () => boolean
  /** Waits `ms` between tries; the driver gives the connection to other queries meanwhile. */
  pause?: (ms: number) => Promise<void>
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Runs `attempt` until it no longer fails with SQLITE_BUSY, pausing (without blocking) between
 * tries, and rethrows once `waitMs` has passed. A statement refused with SQLITE_BUSY had no effect,
 * so it can be run again as it was.
 */
export async function retryWhileBusy<T>(attempt: () => T | Promise<T>, options: BusyWaitOptions = {}): Promise<T> {
  const { waitMs = LOCK_WAIT_MS, canRetry = () => true, pause = sleep } = options
  const deadline = Date.now() + waitMs
  for (let wait = FIRST_PAUSE_MS; ; wait = Math.min(wait * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt()
    } catch (error) {
      const left = deadline - Date.now()
      if (!isSqliteBusy(error) || !canRetry() || left <= 0) throw error
      await pause(Math.min(wait, left))
    }
  }
}

/** One connection shared in turns, as Kysely's own SQLite driver does. */
class ConnectionMutex {
  #held: Promise<void> | undefined
  #release: (() => void) | undefined

  async lock(): Promise<void> {
    while (this.#held) await this.#held
    this.#held = new Promise((resolve) => (this.#release = resolve))
  }

  unlock(): void {
    const release = this.#release
    this.#held = undefined
    this.#release = undefined
    release?.()
  }
}

/**
 * Kysely's SQLite driver with two changes: transactions begin IMMEDIATE (docs/decisions/002), and
 * a statement that finds the database locked waits for it asynchronously, letting other queries
 * (page reads above all) use the connection meanwhile.
 */
export class LockWaitingSqliteDriver implements Driver {
  readonly #database: SQLite.Database
  readonly #mutex = new ConnectionMutex()
  readonly #connection: DatabaseConnection

  constructor(database: SQLite.Database) {
    this.#database = database
    const statements = new StatementCache(database)
    this.#connection = {
      executeQuery: <R>(query: CompiledQuery) => this.#run(() => runQuery<R>(statements.get(query.sql), query)),
      streamQuery: <R>(query: CompiledQuery) => streamQuery<R>(database, query),
    }
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock()
    return this.#connection
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock()
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async destroy(): Promise<void> {
    this.#database.close()
  }

  /**
   * Takes the write lock and writes (the unchanged schema version) in a transaction that is
   * rolled back: proves that a write would succeed now. Throws when the database is read-only, or
   * when another connection keeps the lock for longer than `waitMs`.
   */
  async checkWritable(waitMs: number): Promise<void> {
    await this.#mutex.lock()
    try {
      await this.#run(() => this.#database.exec('begin immediate'), waitMs)
      try {
        const version = Number(this.#database.pragma('user_version', { simple: true }))
        this.#database.pragma(`user_version = ${version}`)
      } finally {
        this.#database.exec('rollback')
      }
    } finally {
      this.#mutex.unlock()
    }
  }

  /** Runs a statement on the connection its caller holds, waiting while another connection writes. */
  #run<T>(statement: () => T, waitMs = LOCK_WAIT_MS): Promise<T> {
    return retryWhileBusy(statement, {
      waitMs,
      // Inside a transaction this connection already holds the write lock (BEGIN IMMEDIATE), so
      // SQLITE_BUSY there is not a wait for the lock, and the transaction cannot be resumed.
      canRetry: () => !this.#database.inTransaction,
      pause: async (ms) => {
        this.#mutex.unlock()
        await sleep(ms)
        await this.#mutex.lock()
      },
    })
  }
}

/**
 * Statements prepared once per SQL text: preparing took a third of the time of a page read from
 * memory (the content version is read for each). A statement runs to its end before the next use,
 * so one copy is enough; SQLite prepares it again by itself after a schema change.
 */
class StatementCache {
  static readonly MAX = 500
  readonly #database: SQLite.Database
  readonly #statements = new Map<string, SQLite.Statement>()

  constructor(database: SQLite.Database) {
    this.#database = database
  }

  get(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql)
    if (!statement) {
      statement = this.#database.prepare(sql)
      // Queries built with a varying number of values (`in (…)`) make new texts: start again rather than grow.
      if (this.#statements.size >= StatementCache.MAX) this.#statements.clear()
      this.#statements.set(sql, statement)
    }
    return statement
  }
}

function runQuery<R>(statement: SQLite.Statement, { parameters }: CompiledQuery): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] }
  const { changes, lastInsertRowid } = statement.run(parameters)
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
}

async function* streamQuery<R>(database: SQLite.Database, { sql, parameters, query }: CompiledQuery) {
  if (!SelectQueryNode.is(query)) throw new Error('SQLite streams only select queries')
  for (const row of database.prepare(sql).iterate(parameters)) yield { rows: [row as R] }
}
