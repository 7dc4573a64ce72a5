import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely'

/**
 * A read-only SQLite connection in a worker thread, for the reads whose length the visitor
 * chooses (the site's search). better-sqlite3 is synchronous: on the main thread such a read holds
 * every other request, and the acceptance of new connections, until it ends. Here it runs beside
 * them; the main thread only waits for its rows.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.module)
const database = new Database(workerData.file, { readonly: true, fileMustExist: true })
database.pragma('busy_timeout = 5000')
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    parentPort.postMessage({ id, rows: database.prepare(sql).all(parameters) })
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) })
  }
})
`

interface Answer {
  id: number
  rows?: unknown[]
  error?: string
}

export class WorkerReadDriver implements Driver {
  readonly #file: string
  #worker: Worker | undefined
  readonly #waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>()
  #nextId = 0

  constructor(file: string) {
    this.#file = file
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => ({ rows: (await this.#read(query)) as R[] }),
      streamQuery: () => {
        throw new Error('reads in the worker are not streamed')
      },
    }
  }

  async releaseConnection(): Promise<void> {}

  async beginTransaction(): Promise<void> {
    throw new Error('the worker connection only reads')
  }

  async commitTransaction(): Promise<void> {}

  async rollbackTransaction(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#worker?.terminate()
  }

  #read(query: CompiledQuery): Promise<unknown[]> {
    const worker = this.#started()
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject })
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters })
    })
  }

  /** The worker, started at the first read, and again after it failed. */
  #started(): Worker {
    if (this.#worker) return this.#worker
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: this.#file, module: createRequire(import.meta.url).resolve('better-sqlite3') },
    })
    // An idle worker keeps no process alive (a command, a test run).
    worker.unref()
    worker.on('message', ({ id, rows, error }: Answer) => {
      const waiting = this.#waiting.get(id)
      this.#waiting.delete(id)
      if (error !== undefined) waiting?.reject(new Error(error))
      else waiting?.resolve(rows ?? [])
    })
    worker.on('error', (error) => this.#fail(worker, error))
    worker.on('exit', () => this.#fail(worker, new Error('the SQLite reader stopped')))
    this.#worker = worker
    return worker
  }

  #fail(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return
    this.#worker = undefined
    for (const { reject } of this.#waiting.values()) reject(error)
    this.#waiting.clear()
  }
}
