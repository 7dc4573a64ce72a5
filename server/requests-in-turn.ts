import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'

const BUSY = 'The site is busy. Please try again in a moment.'

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
 * The queue is bounded: a request beyond `maxWaiting` is refused at once with 503 and
 * Retry-After, rather than made to wait longer than its visitor would. A request whose client
 * left while it waited is dropped without being made.
 */
export function inTurn(listener: RequestListener, { maxWaiting }: { maxWaiting: number }): RequestListener {
  const waiting: [IncomingMessage, ServerResponse][] = []
  let scheduled = false

  function startNext() {
    scheduled = false
    let next = waiting.shift()
    // Node aborts a request whose client closed its connection.
    while (next?.[0].destroyed) next = waiting.shift()
    if (waiting.length > 0) schedule()
    if (next) void listener(...next)
  }

  function schedule() {
    if (scheduled) return
    scheduled = true
    setImmediate(startNext)
  }

  return (incoming, outgoing) => {
    if (waiting.length >= maxWaiting) {
      outgoing.writeHead(503, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(BUSY),
        'cache-control': 'no-store',
        'retry-after': '5',
      })
      outgoing.end(BUSY)
      return
    }
    waiting.push([incoming, outgoing])
    schedule()
  }
}
