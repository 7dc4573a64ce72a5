import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { getRequestListener, type HttpBindings } from '@hono/node-server'
import type { ServerBuild } from 'react-router'
import { clientAddress, clientRateLimitKey } from '../app/platform/client-address.server'
import type { App } from './app'
import { withDeclaredQuery } from './declared-query'
import {
  answerOf,
  createPageCache,
  encodeFor,
  holdsPage,
  isCacheableRequest,
  keepable,
  pageKey,
  type Asked,
  type KeptPage,
} from './page-cache'
import { inTurn, type InTurnOptions } from './requests-in-turn'
import { isSearchPath } from './search-path'
import { answerStaticFile, type StaticFile } from './static-files'

export interface AnswersFromMemoryOptions {
  app: App
  /** The app's routes, whose declared query parameters are part of a kept page's key. */
  routes: ServerBuild['routes']
  staticFiles: Map<string, StaticFile>
  /** 0: no page is kept. */
  pageCacheSeconds: number
  readContentVersion: () => Promise<string>
  sessionCookie: string
}

/**
 * The address a request asks for, read as the app reads it (`/a#b` is /a, `/a/../b` and
 * `/a/%2e%2e/b` are /b, an absolute target is taken as it is); null when it is no address.
 */
function requestedUrl(incoming: IncomingMessage): URL | null {
  const target = incoming.url ?? ''
  try {
    return new URL(/^https?:\/\//.test(target) ? target : `http://localhost${target}`)
  } catch {
    return null
  }
}

/**
 * How requests wait for the app (server/requests-in-turn.ts). At 3 to 8 ms a page on a small
 * server, the last in a full queue waits a second or two. The health check and uploaded files
 * start at once: they cost little, and a health check refused under a flood would have the
 * container restarted. One client address may hold a quarter of the queue: room for many phones
 * behind a carrier's shared address, not enough to keep every other visitor out.
 */
const TURNS: InTurnOptions = {
  maxWaiting: 256,
  maxWaitingPerConnection: 4,
  maxWaitingPerAddress: 64,
  // A request without an address is refused by the app; until then they count as one client.
  addressOf: (incoming) => clientRateLimitKey(clientAddress(incoming) ?? ''),
  startsAtOnce: (incoming) => {
    // Decided on the path the app will serve: /media/../calendar is the calendar, made in turn.
    const pathname = requestedUrl(incoming)?.pathname
    return pathname === '/healthz' || pathname?.startsWith('/media/') === true
  },
  // A search reads many rows (on SQLite, holding the process while it does): made when no page
  // waits, one at a time, ten waiting (docs/decisions/045-search-work-is-bounded.md).
  startsLater: (incoming) => isSearchPath(requestedUrl(incoming)?.pathname ?? ''),
  maxWaitingLater: 10,
}

// A database that hangs must not hold up every page (nor the health check behind them).
const VERSION_WAIT_MS = 500

/** The content version, or null when the database fails or takes longer than `ms` to say. */
function versionWithin(read: Promise<string>, ms: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))
  return Promise.race([read.catch(() => null), late]).finally(() => clearTimeout(timer))
}

/**
 * One read of the content version for all the requests that arrive while it runs: under a burst
 * of visitors the database is asked once per round trip, not once per page.
 */
function sharedReads(read: () => Promise<string>): () => Promise<string | null> {
  let pending: Promise<string | null> | null = null
  return () => (pending ??= versionWithin(read(), VERSION_WAIT_MS).finally(() => (pending = null)))
}

/**
 * The server's request listener. Built files and kept pages are written straight from memory,
 * without the app's middleware (their headers were set when they were made); everything else,
 * and a page that is not kept yet, goes to the app, whose answer is kept when it may be.
 */
export function answersFromMemory(options: AnswersFromMemoryOptions): RequestListener {
  const { app, routes, staticFiles, sessionCookie } = options
  const pageCache = options.pageCacheSeconds > 0 ? createPageCache(options.pageCacheSeconds) : null
  const readVersion = sharedReads(options.readContentVersion)

  // Pages being made, by key: a burst of visitors to a page that is not kept yet waits for the
  // one being made with the same content version instead of making it again, each.
  const making = new Map<string, { version: string; page: Promise<KeptPage | null> }>()

  /** The answer to this client, compressing the page in its encoding if no client took that before. */
  async function answerFor(key: string, page: KeptPage, asked: Asked, state: 'hit' | 'miss') {
    // A client that holds the page is sent none of its copies: none is made for it.
    if (!holdsPage(page, asked)) await encodeFor(page, asked['accept-encoding'], () => pageCache!.grew(key, page))
    return answerOf(page, asked, state)
  }

  async function responseOf(key: string, page: KeptPage, asked: Asked, state: 'hit' | 'miss') {
    const { status, headers, body } = await answerFor(key, page, asked, state)
    return new Response(body && new Uint8Array(body), { status, headers })
  }

  /** The app's answer, kept when it may be; while it is made, it is the page others with `key` wait for. */
  async function makeAndKeep(key: string, version: string, make: () => Response | Promise<Response>, asked: Asked) {
    // Kept, or being made, since this request was found not kept.
    const beingMade = making.get(key)
    const ready = pageCache!.get(key, version) ?? (beingMade?.version === version ? await beingMade.page : null)
    if (ready) return responseOf(key, ready, asked, 'hit')
    const first = !making.has(key)
    let made: (page: KeptPage | null) => void = () => {}
    if (first) making.set(key, { version, page: new Promise((resolve) => (made = resolve)) })
    let page: KeptPage | null = null
    try {
      const kept = await keepable(await make(), version)
      if (kept instanceof Response) return kept
      page = kept
      const response = await responseOf(key, page, asked, 'miss')
      pageCache!.set(key, page)
      return response
    } finally {
      if (first) {
        making.delete(key)
        made(page)
      }
    }
  }

  /** The key of the page a request asks for: the query parameters that no route reads are left out. */
  async function keyOf(incoming: IncomingMessage): Promise<string> {
    const url = requestedUrl(incoming)
    if (!url) throw new Error(`Not an address: ${incoming.url}`)
    return pageKey(incoming, await withDeclaredQuery(routes, url))
  }

  // Pages and files from memory go out at once; what the app makes waits its turn (server/requests-in-turn.ts).
  const answerWithApp = inTurn(
    getRequestListener(async (request, bindings) => {
      // This server speaks HTTP/1.1 only.
      const { incoming } = bindings as HttpBindings
      if (!pageCache || !isCacheableRequest(incoming, sessionCookie)) return app.fetch(request, bindings)
      // Read before the page is made: a change while it is made leaves it out of date, not kept as current.
      const version = await readVersion()
      if (version === null) return app.fetch(request, bindings)
      const make = () => app.fetch(request, { ...bindings, forPageCache: true })
      return makeAndKeep(await keyOf(incoming), version, make, incoming.headers)
    }),
    TURNS,
  )

  async function answerKeptPage(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const key = await keyOf(incoming)
    const page = pageCache!.get(key, await readVersion())
    if (!page) return answerWithApp(incoming, outgoing)
    const { status, headers, body } = await answerFor(key, page, incoming.headers, 'hit')
    outgoing.writeHead(status, headers.flat())
    outgoing.end(body ?? undefined)
  }

  return (incoming, outgoing) => {
    if (answerStaticFile(staticFiles, incoming, outgoing)) return
    // A request without a client address is refused by the app.
    if (pageCache && clientAddress(incoming) && isCacheableRequest(incoming, sessionCookie)) {
      answerKeptPage(incoming, outgoing).catch((error: Error) => outgoing.destroy(error))
      return
    }
    void answerWithApp(incoming, outgoing)
  }
}
