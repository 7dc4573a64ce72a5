// Run with `node --import tsx server/index.ts`: the `tsx` command would wrap the server in a second
// process that SIGKILLs it when it does not confirm a SIGTERM within ~30 ms, cutting graceful shutdown short.
import type { Server } from 'node:http'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { env } from '../app/platform/env.server'
import { createApp, type AppServerBuild } from './app'
import { loadStaticFiles, serveStaticFiles } from './static-files'

// BUILD_DIR lets several builds live side by side (tests and benchmarks use their own).
const buildDir = path.resolve(import.meta.dirname, '..', process.env.BUILD_DIR ?? 'build')
const buildPath = path.join(buildDir, 'server/index.js')
const build = (await import(buildPath)) as AppServerBuild
await build.entry.module.prepareServer()

const app = createApp(async () => build, {
  mode: 'production',
  serveFiles: (app) => app.use(serveStaticFiles(loadStaticFiles(path.join(buildDir, 'client')))),
})

// Plain HTTP/1.1 (no HTTP/2 options are given).
const server = serve({ fetch: app.fetch, hostname: env.HOST, port: env.PORT }, (info) => {
  console.log(`Listening on http://${info.address === '0.0.0.0' ? 'localhost' : info.address}:${info.port}`)
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    console.warn(
      'PUBLIC_URL is not set: links in feeds, the sitemap and social previews name this server\'s own address. ' +
        'Set PUBLIC_URL to the address visitors use (e.g. https://www.example.org).',
    )
  }
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
