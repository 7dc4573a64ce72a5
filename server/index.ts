// Run with `node --import tsx server/index.ts`: the `tsx` command would wrap the server in a second
// process that SIGKILLs it when it does not confirm a SIGTERM within ~30 ms, cutting graceful shutdown short.
import crypto from 'node:crypto'
import type { Server } from 'node:http'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { getConnInfo } from '@hono/node-server/conninfo'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { compress } from 'hono/compress'
import { NONCE, secureHeaders } from 'hono/secure-headers'
import { createRequestHandler, RouterContextProvider, type RouterContext, type ServerBuild } from 'react-router'
import { env } from '../app/platform/env.server'
import type { RequestInfo } from '../app/platform/request-context'

interface AppServerBuild extends ServerBuild {
  entry: ServerBuild['entry'] & {
    module: ServerBuild['entry']['module'] & {
      prepareServer: () => Promise<void>
      closeServer: () => Promise<void>
      requestInfoContext: RouterContext<RequestInfo>
    }
  }
}

// BUILD_DIR lets several builds live side by side (tests and benchmarks use their own).
const buildDir = path.resolve(import.meta.dirname, '..', process.env.BUILD_DIR ?? 'build')
const buildPath = path.join(buildDir, 'server/index.js')
const build = (await import(buildPath)) as AppServerBuild
await build.entry.module.prepareServer()

const handleRequest = createRequestHandler(build, 'production')
// The context key must be the build's own object, not a second copy loaded here.
const { requestInfoContext } = build.entry.module
const app = new Hono<{ Variables: { secureHeadersNonce?: string } }>()

/** The client address; X-Forwarded-For is believed only behind a proxy we were told to trust. */
function clientIp(c: Context): string {
  if (env.TRUST_PROXY) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean)
    if (forwarded?.length) return forwarded[forwarded.length - 1]
  }
  return getConnInfo(c).remote.address ?? 'unknown'
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
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
    },
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    removePoweredBy: true,
  }),
)

// Refuse cross-site writes before any body is read (CSRF defence for forms and resource routes alike).
app.use(async (c, next) => {
  if (['GET', 'HEAD', 'OPTIONS'].includes(c.req.method)) return next()
  const origin = c.req.header('origin')
  const fetchSite = c.req.header('sec-fetch-site')
  const foreign = origin ? origin !== siteOrigin(c) : fetchSite === 'cross-site'
  if (foreign) return c.text('Cross-site requests are not allowed.', 403)
  return next()
})

// Uploaded images may be shown by feed readers and other sites; everything else stays same-origin.
app.use(async (c, next) => {
  await next()
  c.header('Cross-Origin-Resource-Policy', c.req.path.startsWith('/media/') ? 'cross-origin' : 'same-origin')
})

app.use(compress())

app.use(
  '/assets/*',
  async (c, next) => {
    await next()
    if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable')
  },
  serveStatic({ root: path.relative(process.cwd(), path.join(buildDir, 'client')) }),
)
// Only file-like paths (favicon.svg, social-preview.jpg) can be public files: pages skip the disk lookup.
const serveStaticFile = serveStatic({
  root: path.relative(process.cwd(), path.join(buildDir, 'client')),
  onFound: (_path, c) => {
    c.header('Cache-Control', 'public, max-age=3600')
  },
})
app.use('*', async (c, next) => (/\.\w+$/.test(c.req.path) ? serveStaticFile(c, next) : next()))

const maxBodyBytes = Math.round(env.MAX_BODY_MB * 1024 * 1024)
app.use(
  bodyLimit({
    maxSize: maxBodyBytes,
    onError: (c) => c.text(`Request body is too large (limit ${env.MAX_BODY_MB} MB).`, 413),
  }),
)

/**
 * The request with the address the visitor used. Behind a TLS-terminating proxy the app would
 * otherwise see http:// and React Router would refuse every form post (its Origin check).
 */
function publicRequest(c: Context): Request {
  const url = new URL(c.req.url)
  const origin = siteOrigin(c)
  if (url.origin === origin) return c.req.raw
  return new Request(new URL(url.pathname + url.search, origin), c.req.raw)
}

app.all('*', async (c) => {
  const context = new RouterContextProvider()
  context.set(requestInfoContext, {
    nonce: c.get('secureHeadersNonce') ?? crypto.randomBytes(16).toString('base64'),
    clientIp: clientIp(c),
    secure: isSecure(c),
  })
  return handleRequest(publicRequest(c), context)
})

// Plain HTTP/1.1 (no HTTP/2 options are given).
const server = serve({ fetch: app.fetch, hostname: env.HOST, port: env.PORT }, (info) => {
  console.log(`Listening on http://${info.address === '0.0.0.0' ? 'localhost' : info.address}:${info.port}`)
}) as Server

let stopping = false
// close() leaves a connection that a response finishes later open for keep-alive, holding up the
// exit until its client or keepAliveTimeout ends it: while stopping, drop each one once it is idle.
server.on('request', (_req, res) => {
  res.on('finish', () => {
    if (stopping) server.closeIdleConnections()
  })
})
function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  console.log(`${signal} received: finishing open requests`)
  const force = setTimeout(() => process.exit(1), 15_000)
  force.unref()
  // close() stops accepting, drops idle keep-alive sockets and waits for in-flight responses.
  server.close(async () => {
    await build.entry.module.closeServer()
    process.exit(0)
  })
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
