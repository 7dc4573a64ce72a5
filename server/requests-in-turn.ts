import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { CACHE_PROFILES } from '../app/platform/http-caching'

const BUSY = 'The site is busy. Please try again in a moment.'
/** The longest a request of the later lane keeps it from the next. */
const LATER_TURN_MS = 10_000

export interface InTurnOptions {
  /** Requests waiting at most; beyond, 503. */
  maxWaiting: number
  /**
   * Requests waiting at most from one connection. Browsers and proxies send one request at a
   * time on a connection; one client pipelining hundreds in one packet would fill the queue.
   */
  maxWaitingPerConnection: number
  /**
   * Requests waiting at most from one client address (`addressOf`), over all its connections:
   * one client opening many connections would fill the queue. Phones behind a carrier's shared
   * address count as one, so this is a share of the queue, not a visitor's few requests.
   */
  maxWaitingPerAddress: number
  /** The client address of a request, as the app counts it (an IPv6 client per /64). */
  addressOf: (incoming: IncomingMessage) => string
  /** Requests that start at once, without waiting: cheap ones that must answer under load. */
  startsAtOnce: (incoming: IncomingMessage) => boolean
  /**
   * Requests made only when no other waits, one at a time, `maxWaitingLater` waiting at most
   * (beyond, 503): costly ones that must not delay anyone else, however many come (searches).
   */
  startsLater: (incoming: IncomingMessage) => boolean
  maxWaitingLater: number
}

interface Waiting {
  incoming: IncomingMessage
  outgoing: ServerResponse
  address: string
}

/**
 * Requests wait their turn in one queue, and one starts per turn of the event loop.
 *
 * Node (libuv 1.46 and later) accepts at most one new connection per turn of its loop, and a turn
 * runs every request that arrived in it: the app makes a page in one go, so a turn with twenty
 * busy connections lasts twenty pages. Connections already open were then served again and again
 * while new visitors waited in the kernel's queue, one accepted per long turn: seconds under load.
 * Starting one request per turn keeps each turn to about one page, so a new connection waits no
 * longer than the requests ahead of it.
 *
 * The queue is bounded, in all, per connection and per client address: a request beyond is refused
 * at once (503 when the queue is full, 429 when its client has its share) with Retry-After, rather
 * than made to wait longer than its visitor would. A full queue still takes a request from an
 * address with fewer waiting than another, whose newest it refuses instead. A request whose client
 * left while it waited is dropped without being made.
 */
export function inTurn(listener: RequestListener, options: InTurnOptions): RequestListener {
  const waiting: Waiting[] = []
  const waitingLater: Waiting[] = []
  let laterRunning = false
  const waitingOn = new WeakMap<Socket, number>()
  const waitingFrom = new Map<string, number>()
  let scheduled = false

  /** The next request whose client is still there; those who left are dropped on the way. */
  function takeFrom(queue: Waiting[]): Waiting | undefined {
    let next = queue.shift()
    // Node aborts a request whose client closed its connection.
    while (next?.incoming.destroyed) {
      leftQueue(next)
      next = queue.shift()
    }
    if (next) leftQueue(next)
    return next
  }

  function startNext() {
    scheduled = false
    const next = takeFrom(waiting)
    if (next) {
      if (waiting.length > 0 || waitingLater.length > 0) schedule()
      void listener(next.incoming, next.outgoing)
      return
    }
    if (laterRunning) return
    const later = takeFrom(waitingLater)
    if (!later) return
    laterRunning = true
    // The lane is free once the answer is made, or its client gone, or after LATER_TURN_MS in any
    // case: a client that never reads its answer holds no one else's search.
    let freed = false
    const free = () => {
      if (freed) return
      freed = true
      clearTimeout(timer)
      laterRunning = false
      schedule()
    }
    const timer = setTimeout(free, LATER_TURN_MS)
    later.outgoing.once('close', free)
    if (waitingLater.length > 0) schedule()
    const making: unknown = listener(later.incoming, later.outgoing)
    if (making instanceof Promise) making.finally(free).catch(() => {})
  }

  function leftQueue({ incoming, address }: Waiting) {
    waitingOn.set(incoming.socket, (waitingOn.get(incoming.socket) ?? 1) - 1)
    const fromAddress = (waitingFrom.get(address) ?? 1) - 1
    if (fromAddress > 0) waitingFrom.set(address, fromAddress)
    else waitingFrom.delete(address)
  }

  function schedule() {
    if (scheduled) return
    scheduled = true
    setImmediate(startNext)
  }

  /**
   * When the queue is full, room for a request from an address with `waitingFromIt`: a request
   * whose client left goes first; else the newest request of the address with the most waiting is
   * refused, if that is more than the newcomer's address would have and more than a floor (a
   * carrier's shared address keeps a few places against many addresses of one each). A flood from a
   * few addresses then refuses itself, not everyone else.
   */
  function makeRoomFor(waitingFromIt: number): boolean {
    const gone = waiting.findIndex((request) => request.incoming.destroyed)
    if (gone >= 0) {
      leftQueue(waiting.splice(gone, 1)[0])
      return true
    }
    let largest: string | undefined
    let most = Math.max(waitingFromIt + 1, Math.floor(options.maxWaitingPerAddress / 4))
    for (const [address, count] of waitingFrom) {
      if (count > most) [largest, most] = [address, count]
    }
    if (largest === undefined) return false
    const [refused] = waiting.splice(
      waiting.findLastIndex((request) => request.address === largest),
      1,
    )
    leftQueue(refused)
    refuse(refused.outgoing, 429)
    return true
  }

  return (incoming, outgoing) => {
    if (options.startsAtOnce(incoming)) return void listener(incoming, outgoing)
    const address = options.addressOf(incoming)
    const onConnection = waitingOn.get(incoming.socket) ?? 0
    const fromAddress = waitingFrom.get(address) ?? 0
    // One client over its share is told so (429); a full queue is the server's limit (503).
    if (onConnection >= options.maxWaitingPerConnection || fromAddress >= options.maxWaitingPerAddress) {
      return refuse(outgoing, 429)
    }
    const later = options.startsLater(incoming)
    if (later && waitingLater.length >= options.maxWaitingLater) return refuse(outgoing, 503)
    if (!later && waiting.length >= options.maxWaiting && !makeRoomFor(fromAddress)) return refuse(outgoing, 503)
    // Read again: the room made may have been this connection's.
    waitingOn.set(incoming.socket, (waitingOn.get(incoming.socket) ?? 0) + 1)
    waitingFrom.set(address, (waitingFrom.get(address) ?? 0) + 1)
    ;(later ? waitingLater : waiting).push({ incoming, outgoing, address })
    schedule()
  }
}

function refuse(outgoing: ServerResponse, status: 429 | 503): void {
  outgoing.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(BUSY),
    'cache-control': CACHE_PROFILES.momentary,
    'retry-after': '5',
  })
  outgoing.end(BUSY)
}
