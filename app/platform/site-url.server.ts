import type { RouterContextProvider } from 'react-router'
import { env } from './env.server'
import { requestInfoContext } from './request-context'

/**
 * The site's public origin for absolute links (canonical, social previews, sitemap, feeds):
 * PUBLIC_URL when set, otherwise the origin the request came in on.
 */
export function getSiteOrigin(request: Request, context: Readonly<RouterContextProvider>): string {
  if (env.PUBLIC_URL) return new URL(env.PUBLIC_URL).origin
  const { secure } = context.get(requestInfoContext)
  return `${secure ? 'https' : 'http'}://${new URL(request.url).host}`
}
