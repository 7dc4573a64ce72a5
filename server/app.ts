import type { HttpBindings } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { NONCE, secureHeaders } from 'hono/secure-headers'
import { createRequestHandler, RouterContextProvider, type RequestHandler, type ServerBuild } from 'react-router'
import { clientAddress } from '../app/platform/client-address.server'
import { env } from '../app/platform/env.server'
import { SAVE_DATA_HEADERS } from '../app/platform/save-data'
import type { SiteForServer } from '../app/site-for-server.server'
import { compressAnswer } from './compression'
import { withDeclaredQuery } from './declared-query'
import { mayBeKept } from './page-cache'

/** React Router's server build, with what the app gives the HTTP server (app/site-for-server.server.ts). */
export interface AppServerBuild extends ServerBuild {
  entry: ServerBuild['entry'] & { module: ServerBuild['entry']['module'] & { siteForServer: SiteForServer } }
}

export interface AppBindings extends HttpBindings {
  /** The page cache asks: it compresses the answers it keeps itself, once they are final (server/page-cache.ts). */
  forPageCache?: boolean
}

export type App = Hono<{ Bindings: AppBindings; Variables: { secureHeadersNonce: string } }>

export interface AppOptions {
  /** 'development' shows error details and lets Vite's dev client run (see the CSP below). */
  mode: 'production' | 'development'
}

/** The local end of the connection: the address and port this request reached the server on. */
function serverAddress(c: Context): string {
  const { localAddress = '127.0.0.1', localPort } = (c.env as AppBindings).incoming.socket
  // A server listening on `::` sees IPv4 clients as ::ffff:a.b.c.d.
  const address = localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
  return `${address.includes(':') ? `[${address}]` : address}:${localPort}`
}

function isSecure(c: Context): boolean {
  // A configured public address says how visitors reach the site, whatever the hop to this process.
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).protocol === 'https:'
  if (env.TRUST_PROXY && c.req.header('x-forwarded-proto')) return c.req.header('x-forwarded-proto') === 'https'
  return new URL(c.req.url).protocol === 'https:'
}

function siteOrigin(c: Context): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin
  const url = new URL(c.req.url)
  return `${isSecure(c) ? 'https' : 'http'}://${url.host}`
}

/**
 * The request with the address the visitor used. Behind a TLS-terminating proxy the app would
 * otherwise see http:// and React Router would refuse every form post (its Origin check).
 */
function publicRequest(c: Context): Request {
  const url = new URL(c.req.url)
  const origin = siteOrigin(c)
  const request = isOneClickUnsubscribe(c) ? withoutOrigin(c.req.raw) : c.req.raw
  if (url.origin === origin) return request
  return new Request(new URL(url.pathname + url.search, origin), request)
}

/**
 * RFC 8058's one-click unsubscribe: a mail program POSTs to the List-Unsubscribe address from
 * wherever it runs, and one in a web page sends that page's Origin. The link's secret token is its
 * only authority and the POST can do nothing but unsubscribe, so no Origin is checked there (ours
 * nor React Router's); every other POST keeps the check. A GET only shows the page's button.
 */
function isOneClickUnsubscribe(c: Context): boolean {
  return c.req.method === 'POST' && /^\/subscribe\/unsubscribe\/[\w-]+$/.test(c.req.path)
}

function withoutOrigin(request: Request): Request {
  const headers = new Headers(request.headers)
  headers.delete('origin')
  return new Request(request, { headers })
}

/** The request with only the query parameters that its routes declare (server/declared-query.ts). */
async function withQueryTheRoutesRead(build: AppServerBuild, request: Request): Promise<Request> {
  const url = new URL(request.url)
  const declared = await withDeclaredQuery(build.routes, url)
  return declared === url.pathname + url.search ? request : new Request(new URL(declared, url), request)
}

/**
 * The Hono app around React Router. `getBuild` returns the current server build: always the same
 * one in production, the freshly edited one in development.
 */
export function createApp(getBuild: () => Promise<AppServerBuild>, options: AppOptions): App {
  const dev = options.mode === 'development'
  /** React Router's handler of each build, made once. */
  const handlers = new WeakMap<AppServerBuild, RequestHandler>()
  function handlerOf(build: AppServerBuild) {
    let handleRequest = handlers.get(build)
    if (!handleRequest) {
      handleRequest = createRequestHandler(build, options.mode)
      handlers.set(build, handleRequest)
    }
    return handleRequest
  }
  const app: App = new Hono()

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'", NONCE],
        // sonner and React's style props write inline styles; scripts stay nonce-only.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        // Development only: Vite's client reloads the page over a WebSocket.
        connectSrc: dev ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
        fontSrc: ["'self'"],
      },
      crossOriginOpenerPolicy: 'same-origin',
      crossOriginResourcePolicy: false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: 'strict-origin-when-cross-origin',
      // Set below, and only over HTTPS: browsers ignore it on plain HTTP, where it only misleads.
      strictTransportSecurity: false,
      xFrameOptions: 'DENY',
      removePoweredBy: true,
    }),
  )

  // Headers are set on the answer itself: Hono's `c.header` after the handler wraps the answer in a
  // new Response each time, whose body is then read back through a stream.
  app.use(async (c, next) => {
    await next()
    if (isSecure(c)) c.res.headers.set('Strict-Transport-Security', 'max-age=15552000; includeSubDomains')
  })

  // Refuse cross-site writes before any body is read (CSRF defence for forms and resource routes alike).
  app.use(async (c, next) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(c.req.method) || isOneClickUnsubscribe(c)) return next()
    const origin = c.req.header('origin')
    const fetchSite = c.req.header('sec-fetch-site')
    const foreign = origin ? origin !== siteOrigin(c) : fetchSite === 'cross-site'
    if (foreign) return c.text('Cross-site requests are not allowed.', 403)
    return next()
  })

  // Uploaded images may be shown by feed readers and other sites; everything else stays same-origin.
  app.use(async (c, next) => {
    await next()
    c.res.headers.set('Cross-Origin-Resource-Policy', c.req.path.startsWith('/media/') ? 'cross-origin' : 'same-origin')
  })

  // A page's pictures and videos depend on whether its visitor saves data (app/platform/save-data.ts);
  // Accept-CH asks Chrome to say when the connection is 2G.
  app.use(async (c, next) => {
    await next()
    if (!c.res.headers.get('content-type')?.startsWith('text/html')) return
    c.res.headers.append('Vary', SAVE_DATA_HEADERS.join(', '))
    c.res.headers.set('Accept-CH', 'ECT')
  })

  // An answer the page cache keeps is compressed there, once, after its nonce is replaced by hashes:
  // compressing it here first would only be undone.
  app.use(async (c, next) => {
    await next()
    if (!(c.env.forPageCache && mayBeKept(c.res))) await compressAnswer(c)
  })

  async function handleWithReactRouter(c: Context, request: Request, bodyTooLarge = false): Promise<Response> {
    // Sign-in and contact throttling count per client address. A request without one is refused:
    // a shared placeholder key would let one such client lock all the others out, and a fresh key
    // per request would escape the throttling altogether.
    const ip = clientAddress((c.env as AppBindings).incoming)
    if (!ip) return c.text('The client address is unknown.', 400)
    const build = await getBuild()
    const site = build.entry.module.siteForServer
    const handleRequest = handlerOf(build)
    if (request.method === 'GET' || request.method === 'HEAD') request = await withQueryTheRoutesRead(build, request)
    const refused = site.answerKnownRefusedSignIn(request, ip)
    if (refused) return refused
    const context = new RouterContextProvider()
    // The context key must be the build's own object, not a second copy loaded here.
    context.set(site.requestInfoContext, {
      nonce: c.get('secureHeadersNonce'),
      clientIp: ip,
      secure: isSecure(c),
      serverAddress: serverAddress(c),
      bodyTooLarge,
    })
    return handleRequest(request, context)
  }

  /**
   * A form post larger than the limit is not read. A browser posting a page (no JavaScript, or
   * a check that was bypassed) gets that page again in the site's layout with a notice, status
   * 413; React Router's own data requests get a 413 error it shows in the page's error boundary.
   * Anything else gets plain text.
   */
  async function answerBodyTooLarge(c: Context): Promise<Response> {
    const url = new URL(publicRequest(c).url)
    const dataRequest = url.pathname.endsWith('.data')
    const pageRequest = c.req.header('accept')?.includes('text/html') ?? false
    if (c.req.method !== 'POST' || !(dataRequest || pageRequest)) {
      return c.text(`Request body is too large (limit ${env.MAX_BODY_MB} MB).`, 413)
    }
    const headers = new Headers(c.req.raw.headers)
    for (const name of ['content-length', 'content-type', 'transfer-encoding']) headers.delete(name)
    if (dataRequest) return handleWithReactRouter(c, new Request(url, { method: 'POST', headers, body: '' }), true)
    const page = await handleWithReactRouter(c, new Request(url, { method: 'GET', headers }), true)
    if (page.status !== 200) return page
    return new Response(page.body, { status: 413, headers: page.headers })
  }

  app.use(bodyLimit({ maxSize: env.maxBodyBytes, onError: answerBodyTooLarge }))

  app.all('*', (c) => handleWithReactRouter(c, publicRequest(c)))

  return app
}
