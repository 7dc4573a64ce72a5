import type { Expression, ExpressionBuilder, Kysely, SqlBool, Updateable } from 'kysely'
import { createBackgroundWorker, type BackgroundWorker } from './background-worker.server'
import type { Database } from './db-schema'
import { db, type Db } from './db.server'
import { isLeaseOfGoneProcess, newLeaseToken } from './lease-holder.server'
import { redactEmailAddresses } from './log-redaction'
import { logger } from './logger.server'

/** The columns that make a table's rows jobs of a leased queue. */
interface LeaseColumns {
  id: string
  attempts: number
  nextAttemptAt: string | null
  leaseToken: string | null
  leaseExpiresAt: string | null
  updatedAt: string
}

/** The tables that can be a queue: one row per job, with the lease columns. */
export type LeasedTable = { [K in keyof Database]: Database[K] extends LeaseColumns ? K : never }[keyof Database]

export interface LeasedQueuePolicy {
  /** After this many failed attempts a job is given up. */
  maxAttempts: number
  /** The delay after the first failure; it doubles with each further one, up to `maxRetryMs`. */
  firstRetryMs: number
  maxRetryMs?: number
  /** How long a claim holds, counted from the claim: longer than any job may take. */
  leaseMs: number
  /** Jobs claimed per pass; a full batch asks for another pass at once. */
  batchSize: number
  /** How often a pass runs without being asked. */
  timerMs: number
}

export function retryDelayMs(policy: LeasedQueuePolicy, attempts: number): number {
  return Math.min(policy.firstRetryMs * 2 ** Math.max(0, attempts - 1), policy.maxRetryMs ?? Infinity)
}

/** The claim a job's work holds; its outcome is recorded with `finish`. */
export interface Lease<T extends LeasedTable> {
  /**
   * Records the job as done with these columns (in the caller's transaction where given) and frees
   * the claim. Throws LeaseLostError if the job was deleted or taken over meanwhile: nothing is recorded.
   */
  finish(executor: Db, columns: Updateable<Database[T]>): Promise<void>
}

/** The job was deleted, or taken over by another worker, while its work ran. */
export class LeaseLostError extends Error {
  constructor() {
    super('the job was deleted or taken over meanwhile')
  }
}

export interface LeasedQueueOptions<T extends LeasedTable> {
  /** For the log lines, e.g. 'video conversion'. */
  name: string
  table: T
  policy: LeasedQueuePolicy
  /** The feature's own condition for a job still to be done; the queue adds its time and its lease. */
  isWaiting: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>
  /** Columns set with the claim, beside the lease (e.g. a status the admin sees). */
  claimed?: Updateable<Database[T]>
  /** Jobs of one lane run one after another, lanes side by side (a hanging service holds up only its own). */
  laneOf?: (job: Database[T]) => string
  /** Does the job; it records its outcome with `lease.finish`. A throw is a failed attempt. */
  work: (job: Database[T], lease: Lease<T>, signal?: AbortSignal) => Promise<void>
  /** Columns recorded with a failed attempt; `giveUp` when no attempt follows. */
  failed: (error: unknown, job: Database[T], giveUp: boolean) => Updateable<Database[T]>
  /** Failures that no later attempt can mend: the job is given up at once. */
  isHopeless?: (error: unknown) => boolean
  /** What else happens once a job is given up (e.g. its working files are removed). */
  onGiveUp?: (job: Database[T]) => Promise<void>
  /**
   * Whether a pass takes over at once the leases of processes of this machine that are gone
   * (killed, crashed), instead of waiting for them to run out. Right for work that a dead process
   * cannot have finished (its child processes died with it); wrong where the work may have taken
   * effect outside (an e-mail accepted by the mail server).
   */
  takeOverLeasesOfGoneProcesses: boolean
  /** Work to do once when the worker starts (e.g. removing leftovers of a previous run). */
  onStart?: () => Promise<unknown>
}

export interface LeasedQueuePassSummary {
  finished: number
  /** Failed attempts that will be tried again. */
  retried: number
  gaveUp: number
  /** The pass took a full batch, so more jobs may be due right now. */
  more: boolean
}

export interface LeasedQueue extends BackgroundWorker {
  /** One pass over the due jobs; several processes may run passes at once, each job is claimed by one. */
  runDue(options?: { now?: Date; signal?: AbortSignal }): Promise<LeasedQueuePassSummary>
}

type Outcome = 'finished' | 'retried' | 'gaveUp' | 'skipped'

/**
 * A job queue on a table of the database, run by a background worker in every app process. A job
 * is claimed with one conditional UPDATE that only one process can win (on SQLite and PostgreSQL
 * alike), which sets a lease token naming this process and a lease expiry; its outcome is written
 * only while that lease holds. Failed attempts are retried with a doubling delay until the policy
 * gives up; a job cut short by a shutdown is given back (claim freed, attempt not counted).
 */
export function createLeasedQueue<T extends LeasedTable>(options: LeasedQueueOptions<T>): LeasedQueue {
  const { policy } = options
  const table: string = options.table
  // The queue reads and writes only the lease columns, the same in every queue table.
  const jobs = db as unknown as Kysely<Record<string, LeaseColumns>>
  const isWaiting = options.isWaiting as unknown as (
    eb: ExpressionBuilder<Record<string, LeaseColumns>, string>,
  ) => Expression<SqlBool>

  /** Due: waiting, its time has come, and unclaimed, or its lease ran out or its holder is gone. */
  function isDue(now: string, goneLeases: string[]) {
    return (eb: ExpressionBuilder<Record<string, LeaseColumns>, string>) =>
      eb.and([
        isWaiting(eb),
        eb('nextAttemptAt', '<=', now),
        eb.or([
          eb('leaseExpiresAt', 'is', null),
          eb('leaseExpiresAt', '<=', now),
          ...(goneLeases.length > 0 ? [eb('leaseToken', 'in', goneLeases)] : []),
        ]),
      ])
  }

  async function leasesOfGoneProcesses(now: string): Promise<string[]> {
    if (!options.takeOverLeasesOfGoneProcesses) return []
    const rows = await jobs
      .selectFrom(table)
      .select('leaseToken')
      .where((eb) => isWaiting(eb))
      .where('leaseExpiresAt', '>', now)
      .execute()
    return rows.flatMap(({ leaseToken }) => (leaseToken && isLeaseOfGoneProcess(leaseToken) ? [leaseToken] : []))
  }

  function leaseOf(id: string, token: string): Lease<T> {
    return {
      async finish(executor, columns) {
        const updated = await (executor as unknown as typeof jobs)
          .updateTable(table)
          .set({ ...columns, nextAttemptAt: null, leaseToken: null, leaseExpiresAt: null, updatedAt: new Date().toISOString() })
          .where('id', '=', id)
          .where('leaseToken', '=', token)
          .executeTakeFirst()
        if (Number(updated.numUpdatedRows) === 0) throw new LeaseLostError()
      },
    }
  }

  async function runOne(id: string, clock: () => Date, goneLeases: string[], signal?: AbortSignal): Promise<Outcome> {
    const now = clock()
    const nowText = now.toISOString()
    const token = newLeaseToken()
    const job = (await jobs
      .updateTable(table)
      .set({
        ...options.claimed,
        leaseToken: token,
        leaseExpiresAt: new Date(now.getTime() + policy.leaseMs).toISOString(),
        attempts: (eb) => eb('attempts', '+', 1),
        updatedAt: nowText,
      })
      .where('id', '=', id)
      .where(isDue(nowText, goneLeases))
      .returningAll()
      .executeTakeFirst()) as Database[T] | undefined
    if (!job) return 'skipped' // another worker got there first

    try {
      await options.work(job, leaseOf(id, token), signal)
      return 'finished'
    } catch (error) {
      if (error instanceof LeaseLostError) return 'skipped'
      const holding = jobs.updateTable(table).where('id', '=', id).where('leaseToken', '=', token)
      if (signal?.aborted) {
        await holding.set({ leaseToken: null, leaseExpiresAt: null, attempts: (eb) => eb('attempts', '-', 1) }).execute()
        return 'skipped'
      }
      const giveUp = job.attempts >= policy.maxAttempts || (options.isHopeless?.(error) ?? false)
      const nextAttemptAt = giveUp ? null : new Date(clock().getTime() + retryDelayMs(policy, job.attempts)).toISOString()
      logger.warn(
        { queue: table, id, attempts: job.attempts, nextAttemptAt, err: redactEmailAddresses(describeError(error)) },
        `${options.name} failed`,
      )
      await holding
        .set({
          ...(options.failed(error, job, giveUp) as Updateable<LeaseColumns>),
          nextAttemptAt,
          leaseToken: null,
          leaseExpiresAt: null,
          updatedAt: new Date().toISOString(),
        })
        .execute()
      if (!giveUp) return 'retried'
      await options.onGiveUp?.(job)
      return 'gaveUp'
    }
  }

  async function runDue({
    now = new Date(),
    signal,
  }: { now?: Date; signal?: AbortSignal } = {}): Promise<LeasedQueuePassSummary> {
    // The pass's own clock: each claim's lease runs from the claim, not from the start of a long pass.
    const startedAt = Date.now()
    const clock = () => new Date(now.getTime() + Date.now() - startedAt)
    const goneLeases = await leasesOfGoneProcesses(now.toISOString())
    const candidates = (await jobs
      .selectFrom(table)
      .selectAll()
      .where(isDue(now.toISOString(), goneLeases))
      .orderBy('nextAttemptAt')
      .limit(policy.batchSize)
      .execute()) as unknown as Database[T][]
    const summary: LeasedQueuePassSummary = { finished: 0, retried: 0, gaveUp: 0, more: candidates.length === policy.batchSize }
    const laneOf = options.laneOf ?? (() => '')
    const lanes = [...new Set(candidates.map(laneOf))]
    await Promise.all(
      lanes.map(async (lane) => {
        for (const job of candidates.filter((c) => laneOf(c) === lane)) {
          if (signal?.aborted) return
          const outcome = await runOne(job.id, clock, goneLeases, signal)
          if (outcome !== 'skipped') summary[outcome]++
        }
      }),
    )
    return summary
  }

  const worker = createBackgroundWorker({
    name: options.name,
    pass: runDue,
    intervalMs: policy.timerMs,
    onStart: options.onStart,
  })
  return { ...worker, runDue }
}

/** An error as one line for a record or a log, at most `maxLength` characters. */
export function describeError(error: unknown, maxLength = 500): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, ' ').slice(0, maxLength)
}
