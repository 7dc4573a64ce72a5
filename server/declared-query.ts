import { createStaticHandler, type RouteObject, type ServerBuild, type StaticHandler } from 'react-router'
import type { DeclaresQueryParams } from '../app/platform/query-params'

type RouteManifest = ServerBuild['routes']

interface DeclaredRoutes {
  /** React Router's own matching over the bare routes (no loaders): its ranking, computed once. */
  matcher: StaticHandler
  /** Every parameter some route declares, and React Router's `_routes`. */
  names: Set<string>
  /** The routes matched by each path seen lately: matching runs the whole router. */
  matched: Map<string, Promise<string[]>>
}

/** Paths whose matched routes are kept: the site's pages with a query, many times over. */
const MATCHED_PATHS = 1000

const declaredRoutes = new WeakMap<RouteManifest, DeclaredRoutes>()

function routeTree(manifest: RouteManifest, parentId?: string): RouteObject[] {
  return Object.values(manifest)
    .flatMap((route) => (route && route.parentId === parentId ? [route] : []))
    .map(({ id, path, index, caseSensitive }) =>
      index ? { id, index: true } : { id, path, caseSensitive, children: routeTree(manifest, id) },
    )
}

function declaredBy(manifest: RouteManifest, id: string): readonly string[] {
  return (manifest[id]!.module as DeclaresQueryParams).queryParams?.names ?? []
}

function routesOf(manifest: RouteManifest): DeclaredRoutes {
  let routes = declaredRoutes.get(manifest)
  if (!routes) {
    const names = new Set(['_routes', ...Object.keys(manifest).flatMap((id) => declaredBy(manifest, id))])
    routes = { matcher: createStaticHandler(routeTree(manifest)), names, matched: new Map() }
    declaredRoutes.set(manifest, routes)
  }
  return routes
}

/** The page a React Router data request is for (`/news.data` for /news, `/_root.data` for /), as it reads it. */
function pagePath(pathname: string): string {
  if (pathname === '/_root.data') return '/'
  return pathname.endsWith('.data') ? pathname.slice(0, -'.data'.length) : pathname
}

async function matchRouteIds(routes: DeclaredRoutes, pathname: string): Promise<string[]> {
  const context = await routes.matcher.query(new Request(new URL(pagePath(pathname), 'http://localhost')))
  return context instanceof Response ? [] : context.matches.map((match) => match.route.id)
}

function matchedRouteIds(routes: DeclaredRoutes, pathname: string): Promise<string[]> {
  let ids = routes.matched.get(pathname)
  if (!ids) {
    if (routes.matched.size >= MATCHED_PATHS) routes.matched.delete(routes.matched.keys().next().value!)
    const matching = matchRouteIds(routes, pathname)
    routes.matched.set(pathname, matching)
    // A failure is not kept: the next request matches again.
    matching.catch(() => routes.matched.get(pathname) === matching && routes.matched.delete(pathname))
    ids = matching
  }
  return ids
}

/**
 * The path and query of `url` with only the first value of each parameter the routes of its
 * address declare (app/platform/query-params.ts), and React Router's `_routes` narrowed to those
 * routes. Routes and the page cache both use this address, so junk parameters make no new page.
 */
export async function withDeclaredQuery(manifest: RouteManifest, url: URL): Promise<string> {
  const routes = routesOf(manifest)
  const given = url.searchParams
  if (![...given.keys()].some((name) => routes.names.has(name))) return url.pathname
  const routeIds = await matchedRouteIds(routes, url.pathname)
  const kept = new URLSearchParams()
  for (const name of routeIds.flatMap((id) => declaredBy(manifest, id))) {
    const value = given.get(name)
    if (value !== null && !kept.has(name)) kept.set(name, value)
  }
  const wanted = given.get('_routes')?.split(',')
  const loaded = routeIds.filter((id) => wanted?.includes(id))
  if (loaded.length) kept.set('_routes', loaded.join(','))
  return kept.size ? `${url.pathname}?${kept}` : url.pathname
}
