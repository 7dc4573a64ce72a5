import { logger } from './logger.server'

export interface BackgroundWorkerOptions {
  /** For the log line when a pass fails, e.g. 'video conversion'. */
  name: string
  /** One pass over the due work; `more` asks for another pass at once (a burst larger than one batch). */
  pass: (options: { signal: AbortSignal }) => Promise<{ more: boolean }>
  /** How often a pass runs without being asked. */
  intervalMs: number
  /** Work to do once when the worker starts (e.g. removing leftovers of a previous run). */
  onStart?: () => Promise<unknown>
}

export interface BackgroundWorker {
  /** Starts a pass in the background (never awaited by a request); during a pass, schedules one more. */
  request(): void
  /** Resolves when the pass under way, if any, has finished. */
  idle(): Promise<void>
  /** Runs a pass now and then every `intervalMs`; started with the server. */
  start(): void
  /** Stops the timer and aborts the pass under way; waits up to `graceMs` for it. */
  stop(graceMs?: number): Promise<void>
}

/** A job queue's runner in this process: one pass at a time, by timer or on request. */
export function createBackgroundWorker({ name, pass, intervalMs, onStart }: BackgroundWorkerOptions): BackgroundWorker {
  let running: Promise<void> | null = null
  let runAgain = false
  let timer: NodeJS.Timeout | null = null
  let shutdown = new AbortController()

  async function idle(): Promise<void> {
    while (running) await running
  }

  function request(): void {
    if (shutdown.signal.aborted) return
    if (running) {
      runAgain = true
      return
    }
    const { signal } = shutdown
    running = (async () => {
      do {
        runAgain = false
        try {
          if ((await pass({ signal })).more) runAgain = true
        } catch (error) {
          logger.error({ err: error }, `${name} run failed`)
        }
      } while (runAgain && !signal.aborted)
    })().finally(() => {
      running = null
    })
  }

  return {
    request,
    idle,
    start() {
      if (shutdown.signal.aborted) shutdown = new AbortController()
      if (timer) return
      timer = setInterval(request, intervalMs)
      timer.unref()
      onStart?.().catch((error) => logger.error({ err: error }, `${name}: start-up work failed`))
      request()
    },
    async stop(graceMs = 5_000) {
      shutdown.abort()
      if (timer) clearInterval(timer)
      timer = null
      let timeout: NodeJS.Timeout | undefined
      await Promise.race([idle(), new Promise((resolve) => (timeout = setTimeout(resolve, graceMs)))])
      clearTimeout(timeout)
    },
  }
}
