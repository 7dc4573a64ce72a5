// Development server (`npm run dev`): the app of server/index.ts, with Vite serving the modules and
// hot updates instead of a build. Run with `node --import tsx server/dev.ts`.
import { createServer as createHttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import { createServer as createViteServer } from 'vite'
import { env } from '../app/platform/env.server'
import { createApp, type AppServerBuild } from './app'
import { printSetupAddress } from './setup-address'

const httpServer = createHttpServer()
// Vite's hot-update WebSocket shares the site's port.
const vite = await createViteServer({
  server: { middlewareMode: true, hmr: { server: httpServer } },
  appType: 'custom',
})

// Loaded afresh through Vite on each request, so edits apply without a restart.
const getBuild = () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<AppServerBuild>
const firstBuild = await getBuild()
const { setupPath } = await firstBuild.entry.module.siteForServer.prepareServer()

const app = createApp(getBuild, { mode: 'development' })
const handleRequest = getRequestListener(app.fetch)
// Vite answers its own paths (modules, /@vite/client, public files) and passes the rest on.
httpServer.on('request', (req, res) => {
  vite.middlewares(req, res, () => handleRequest(req, res))
})

httpServer.listen(env.PORT, env.HOST, () => {
  const address = env.HOST === '0.0.0.0' ? 'localhost' : env.HOST
  // The port bound, also when PORT=0 asked for any free one (the tests do).
  const { port } = httpServer.address() as AddressInfo
  console.log(`Listening on http://${address}:${port} (development server)`)
  printSetupAddress(setupPath, `http://${address}:${port}`)
})

let stopping = false
function shutdown() {
  if (stopping) return
  stopping = true
  const force = setTimeout(() => process.exit(1), 5_000)
  force.unref()
  httpServer.closeAllConnections()
  httpServer.close(async () => {
    await vite.close()
    await firstBuild.entry.module.siteForServer.closeServer()
    process.exit(0)
  })
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
