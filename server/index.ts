// The production server, started by server/start.ts: the build compiles both beside the app's own
// server build (`index.js`) and the browser files (`../client`): `node build/server/start.js`.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { env } from '../app/platform/env.server'
import { answersFromMemory } from './answers-from-memory'
import { createApp, type AppServerBuild } from './app'
import { printSetupAddress } from './setup-address'
import { loadStaticFiles } from './static-files'

const buildDir = path.resolve(import.meta.dirname, '..')
const build = (await import(path.join(buildDir, 'server/index.js'))) as AppServerBuild
const site = build.entry.module.siteForServer
const { setupPath } = await site.prepareServer()

const app = createApp(async () => build, { mode: 'production' })
const listener = answersFromMemory({
  app,
  routes: build.routes,
  staticFiles: loadStaticFiles(path.join(buildDir, 'client')),
  pageCacheSeconds: env.PAGE_CACHE_SECONDS,
  readContentVersion: site.readContentVersion,
  sessionCookie: site.SESSION_COOKIE,
})

// Plain HTTP/1.1.
const server = createServer(listener)
server.listen(env.PORT, env.HOST, () => {
  const info = server.address() as AddressInfo
  const listening = `http://${info.address === '0.0.0.0' ? 'localhost' : info.address}:${info.port}`
  console.log(`Listening on ${listening}`)
  printSetupAddress(setupPath, listening)
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    console.warn(
      "PUBLIC_URL is not set: links in feeds, the sitemap and social previews name this server's own address. " +
        'Set PUBLIC_URL to the address visitors use (e.g. https://www.example.org).',
    )
  }
})

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
    await site.closeServer()
    process.exit(0)
  })
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
