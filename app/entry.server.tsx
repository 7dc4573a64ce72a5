import { Writable } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import { isRouteErrorResponse, ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router'
import { StylesheetTextProvider } from '~/components/public-stylesheet'
import { NonceProvider } from '~/components/nonce'
import { logger } from '~/platform/logger.server'
import { requestInfoContext } from '~/platform/request-context'
import { readSessionId } from '~/platform/session.server'
import { pathForLog } from '~/platform/log-redaction'
import publicStylesheet from '~/styles/public.css?inline'

// The HTTP server (server/) reaches the app through the server build.
export { siteForServer } from '~/site-for-server.server'

export const streamTimeout = 5_000

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(requestInfoContext)
  // Only an anonymous visitor's page may be kept (server/page-cache.ts): it carries the stylesheet.
  const stylesheet = request.method === 'GET' && readSessionId(request) === null ? publicStylesheet : ''
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    let timeout: NodeJS.Timeout | undefined
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesheetTextProvider value={stylesheet}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StylesheetTextProvider>
      </NonceProvider>,
      {
        nonce,
        // The whole page in one piece: the site's pages do not stream (no Suspense), and one piece is
        // compressed (server/compression.ts) or kept (server/page-cache.ts) at once.
        onShellReady() {
          shellRendered = true
        },
        onAllReady() {
          const chunks: Buffer[] = []
          const body = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk)
              done()
            },
          })
          body.on('finish', () => {
            clearTimeout(timeout)
            responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
            resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }))
          })
          pipe(body)
        },
        onShellError(error: unknown) {
          clearTimeout(timeout)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) logger.error({ err: error }, 'render error')
        },
      },
    )
    // Cleared when the page is done: a pending timer would hold the whole render in memory.
    timeout = setTimeout(abort, streamTimeout + 1000)
  })
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  // A refused request (a POST to a page without a form, an unknown method) is the client's doing, not a fault.
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.info({ status: error.status, method: request.method, path: pathForLog(request.url) }, 'request refused')
    return
  }
  logger.error({ err: error, path: pathForLog(request.url) }, 'unhandled error')
}
