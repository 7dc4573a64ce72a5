import { Writable } from 'node:stream'
import { renderToPipeableStream } from 'react-dom/server'
import { isRouteErrorResponse, ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router'
import { KeepMarkupContext } from '~/components/kept-markup'
import { keepMarkup } from '~/components/kept-markup.server'
import { StylesheetTextProvider } from '~/components/public-stylesheet'
import { NonceProvider } from '~/components/nonce'
import { shipsScripts } from '~/components/page-scripts'
import { logger } from '~/platform/logger.server'
import { requestInfoContext } from '~/platform/request-context'
import { readSessionId } from '~/platform/session.server'
import { pathForLog } from '~/platform/log-redaction'
import publicStylesheet from '~/styles/public.css?inline'

// The HTTP server (server/index.ts) reaches start-up and shutdown through the server build.
export { prepareServer, closeServer } from '~/startup.server'
export { readContentVersion } from '~/platform/content-version.server'
export { SESSION_COOKIE } from '~/platform/session.server'
export { answerKnownRefusedSignIn } from '~/routes/auth/refused-sign-in-page.server'
export { requestInfoContext }
/** Anonymous visitors' pages carry it word for word: the server compresses it once (server/precompressed-stretch.ts). */
export { publicStylesheet }

export const streamTimeout = 5_000

/** Each page's bytes as rendered: the server compresses them without reading them back through a stream. */
const renderedPages = new WeakMap<Response, Buffer>()

export function renderedBody(answer: Response): Buffer | undefined {
  return renderedPages.get(answer)
}

type StreamCache = NonNullable<NonNullable<EntryContext['renderMeta']>['streamCache']>

/**
 * Reads the loader data encoded for the page's scripts before the render, so that React Router's
 * StreamTransfer finds each piece ready: otherwise it suspends the render once per piece, and React
 * renders that part again when the piece comes (a few per cent of a page with scripts). Only for a
 * page that ships its scripts: the data is encoded when first asked for.
 */
async function readLoaderDataAhead(context: EntryContext): Promise<void> {
  const { staticHandlerContext: handled, routeModules, renderMeta } = context
  const deepest = handled.matches.at(-1)?.route.id
  const root = handled.loaderData.root as { user?: unknown; toast?: unknown } | undefined
  const personal = Boolean(root?.user || root?.toast)
  if (!renderMeta || !shipsScripts(deepest && routeModules[deepest]?.handle, personal)) return
  const stream = context.serverHandoffStream
  if (!stream) return
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  const cache: StreamCache = {}
  for (let index = 0; ; index++) {
    const piece: { result?: { done: boolean; value: string }; error?: unknown } = await reader.read().then(
      ({ done, value }) => ({ result: { done, value: decoder.decode(value, { stream: !done }) } }),
      // As StreamTransfer does itself: the render throws the error where the piece was to go.
      (error: unknown) => ({ error: error ?? new Error('The loader data could not be encoded') }),
    )
    cache[index] = Object.assign(Promise.resolve(), piece)
    if (!piece.result || piece.result.done) break
  }
  renderMeta.streamCache = cache
  // StreamTransfer takes the stream's reader from here; the stream is locked to this one.
  ;(renderMeta as { streamReader?: unknown }).streamReader = reader
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(requestInfoContext)
  await readLoaderDataAhead(routerContext)
  // Only an anonymous visitor's page may be kept (server/page-cache.ts): it carries the stylesheet.
  const stylesheet = request.method === 'GET' && readSessionId(request) === null ? publicStylesheet : ''
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    let timeout: NodeJS.Timeout | undefined
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesheetTextProvider value={stylesheet}>
          <KeepMarkupContext value={keepMarkup}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </KeepMarkupContext>
        </StylesheetTextProvider>
      </NonceProvider>,
      {
        nonce,
        // The whole page in one piece: the site's pages do not stream (no Suspense), and one piece is
        // compressed (server/compression.ts) or kept (server/page-cache.ts) for a fraction of what a
        // stream of React's small chunks costs.
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
            const page = Buffer.concat(chunks)
            const answer = new Response(page, { headers: responseHeaders, status: responseStatusCode })
            renderedPages.set(answer, page)
            resolve(answer)
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
