import type { RouterContextProvider } from 'react-router'
import { env } from './env.server'
import { requestInfoContext } from './request-context'

/**
 * The site's public origin for absolute links (canonical, social previews, sitemap, feeds):
 * PUBLIC_URL when set. Otherwise the address the request reached the server on, named as the
 * request names it only when that name is this address (or `localhost` for a loopback one):
 * any other Host header could be a stranger's, and links built from it would lead there.
 */
export function getSiteOrigin(request: Request, context: Readonly<RouterContextProvider>): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin
  const { secure, serverAddress } = context.get(requestInfoContext)
  const scheme = secure ? 'https' : 'http'
  const server = new URL(`${scheme}://${serverAddress}`)
  const requested = new URL(request.url)
  return `${scheme}://${namesServer(requested, server) ? requested.host : server.host}`
}

function namesServer(requested: URL, server: URL): boolean {
  if (requested.port !== server.port) return false
  return requested.hostname === server.hostname || (requested.hostname === 'localhost' && isLoopback(server.hostname))
}

function isLoopback(hostname: string): boolean {
  return hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname)
}
