import type { Route } from './+types/robots.txt'
import { getSiteOrigin } from '~/platform/site-url.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

export function loader({ request, context }: Route.LoaderArgs) {
  const origin = getSiteOrigin(request, context)
  const body = ['User-agent: *', 'Disallow: /admin', 'Disallow: /login', '', `Sitemap: ${origin}/sitemap.xml`, ''].join('\n')
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': CACHE_PROFILES.forCrawlers },
  })
}
