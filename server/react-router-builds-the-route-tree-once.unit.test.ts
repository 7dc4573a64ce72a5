import { createElement, useContext } from 'react'
import { renderToString } from 'react-dom/server'
import {
  createRequestHandler,
  createStaticHandler,
  createStaticRouter,
  Outlet,
  ServerRouter,
  UNSAFE_FrameworkContext as FrameworkContext,
  useLoaderData,
  type EntryContext,
  type RouteObject,
  type ServerBuild,
} from 'react-router'
import { describe, expect, it } from 'vitest'

// patches/react-router+7.18.4.patch (decision 040): React Router rebuilt the route tree of the
// whole site for every page it rendered, and encoded every page's loader data for its scripts,
// also for a page without them.

/**
 * A build of two routes whose page says `words`, rendered by a real ServerRouter. Building the
 * route tree reads each route module's `handle` (so do other steps of a request): `handleReads`
 * counts the page module's reads.
 */
function buildSaying(words: string) {
  const page = () => createElement('p', null, words)
  const counter = { handleReads: 0 }
  const pageModule = {
    default: page,
    get handle() {
      counter.handleReads++
      return undefined
    },
  }
  const root = () => createElement('main', null, createElement(Outlet))
  const route = (id: string, parentId: string | undefined, path: string, module: object) => ({
    id,
    parentId,
    path,
    hasAction: false,
    hasLoader: false,
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: false,
    hasErrorBoundary: false,
    module: `/${id}.js`,
    imports: [],
    serverModule: module,
  })
  const rootRoute = route('root', undefined, '', { default: root })
  const pageRoute = route('page', 'root', 'page', pageModule)
  const assetRoutes = Object.fromEntries([rootRoute, pageRoute].map(({ serverModule: _, ...assets }) => [assets.id, assets]))
  const contexts: EntryContext[] = []
  const build = {
    entry: {
      module: {
        default: (request: Request, status: number, headers: Headers, context: EntryContext) => {
          contexts.push(context)
          const html = renderToString(createElement(ServerRouter, { context, url: request.url }))
          return new Response(html, { status, headers })
        },
      },
    },
    routes: Object.fromEntries(
      [rootRoute, pageRoute].map(({ id, parentId, path, serverModule }) => [id, { id, parentId, path, module: serverModule }]),
    ),
    assets: { entry: { module: '/entry.js', imports: [] }, routes: assetRoutes, url: '/manifest.js', version: '1' },
    publicPath: '/',
    assetsBuildDirectory: '/nowhere',
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
  } as unknown as ServerBuild
  return { build, contexts, counter }
}

async function pageOf(build: ServerBuild): Promise<string> {
  const response = await createRequestHandler(build, 'production')(new Request('http://localhost/page'))
  expect(response.status).toBe(200)
  return response.text()
}

describe("React Router's ServerRouter", () => {
  it('keeps the route tree of a build, and makes it again when a route module changes, as in development', async () => {
    const { build, contexts, counter } = buildSaying('The first words')
    expect(await pageOf(build)).toContain('<main><p>The first words</p></main>')
    const readsByFirst = counter.handleReads
    expect(await pageOf(build)).toContain('<main><p>The first words</p></main>')
    // Both renders were given the build's own manifest, and the second built no tree of its own.
    expect(contexts[1].manifest.routes).toBe(contexts[0].manifest.routes)
    expect(counter.handleReads - readsByFirst).toBeLessThan(readsByFirst)

    // Development reloads a route module and keeps the manifest when the route's exports stay.
    const edited = buildSaying('The edited words').build
    build.routes.page!.module = edited.routes.page!.module
    expect(await pageOf(build)).toContain('<main><p>The edited words</p></main>')
  })
})

describe("React Router's document request", () => {
  it("encodes the page's loader data for its scripts only when the page renders them", async () => {
    for (const scripts of [false, true]) {
      const { build } = buildSaying('unused')
      let encodedReads = 0
      const loaded = {
        words: 'The loaded words',
        // Only the encoding of the data for the page's scripts reads this.
        get forScripts() {
          encodedReads++
          return 1
        },
      }
      // As the site's scripts do (app/components/deferred-scripts.tsx), the root says it rendered them.
      const root = () => {
        const framework = useContext(FrameworkContext)
        if (scripts && framework?.renderMeta) framework.renderMeta.didRenderScripts = true
        return createElement('main', null, createElement(Outlet))
      }
      const page = () => createElement('p', null, useLoaderData<typeof loaded>().words)
      build.routes.root!.module = { default: root }
      build.routes.page!.module = { default: page, loader: () => loaded }
      build.assets.routes.page!.hasLoader = true
      expect(await pageOf(build)).toContain('<main><p>The loaded words</p></main>')
      expect(encodedReads > 0, `scripts: ${scripts}`).toBe(scripts)
    }
  })
})

const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    children: [
      { id: 'home', index: true },
      { id: 'about', path: 'about' },
    ],
  },
]

async function contextFor(pathname: string) {
  const context = await createStaticHandler(routes).query(new Request(`http://localhost${pathname}`))
  if (context instanceof Response) throw new Error(`${pathname} was answered with ${context.status}`)
  return context
}

describe("React Router's static router", () => {
  it('keeps the converted routes when ServerRouter asks, and still matches each request on its own', async () => {
    const keep = { unstable_keepDataRoutes: true } as Parameters<typeof createStaticRouter>[2]
    const home = createStaticRouter(routes, await contextFor('/'), keep)
    const about = createStaticRouter(routes, await contextFor('/about'), keep)
    expect(about.routes).toBe(home.routes)
    expect(home.state.matches.map((match) => match.route.id)).toEqual(['root', 'home'])
    expect(about.state.matches.map((match) => match.route.id)).toEqual(['root', 'about'])
    expect(about.state.matches[1].route).toBe(about.routes[0].children![1])
  })

  it('converts the routes of any other caller every time, since lazy routes are filled in place', async () => {
    const first = createStaticRouter(routes, await contextFor('/'))
    const second = createStaticRouter(routes, await contextFor('/'))
    expect(second.routes).not.toBe(first.routes)
  })
})

/** The site's route shapes in small: a list, an item under it, a page beside them. */
const itemRoutes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    children: [
      { id: 'news', path: 'news', children: [{ id: 'article', path: ':slug' }] },
      { id: 'about', path: 'about' },
    ],
  },
]

/** A static handler whose route matchers count the paths they are tried against. */
function countingHandler() {
  const handler = createStaticHandler(itemRoutes)
  const tried = { count: 0 }
  for (const branch of handler._internalRouteBranches) {
    for (const meta of branch.routesMeta as { matcher?: RegExp }[]) {
      if (!meta.matcher) continue
      const original = meta.matcher
      meta.matcher = Object.assign(new RegExp(original.source, original.flags), {
        exec(text: string) {
          tried.count++
          return RegExp.prototype.exec.call(original, text)
        },
      })
    }
  }
  return { handler, tried }
}

async function matchesOf(handler: ReturnType<typeof createStaticHandler>, pathname: string) {
  const context = await handler.query(new Request(`http://localhost${pathname}`))
  if (context instanceof Response) throw new Error(`${pathname} was answered with ${context.status}`)
  return context.matches
}

// The same patch keeps the matches of a path per handler (a request was matched twice, against
// every route), and tells a Response by its class instead of reading its body.
describe("React Router's static handler", () => {
  it('matches a path against its routes once, and gives each request its own matches', async () => {
    const { handler, tried } = countingHandler()
    const first = await matchesOf(handler, '/news/first-article')
    const triedOnce = tried.count
    expect(triedOnce).toBeGreaterThan(0)
    const again = await matchesOf(handler, '/news/first-article')
    expect(tried.count).toBe(triedOnce)
    expect(again.map((match) => match.route.id)).toEqual(['root', 'news', 'article'])
    expect(again[2].params).toEqual({ slug: 'first-article' })
    // A loader that changes its params changes nothing for the next request.
    const changedParams = first[2].params as Record<string, string>
    changedParams.slug = 'changed'
    expect((await matchesOf(handler, '/news/first-article'))[2].params).toEqual({ slug: 'first-article' })
    expect((await matchesOf(handler, '/news/second-article'))[2].params).toEqual({ slug: 'second-article' })
    expect(tried.count).toBeGreaterThan(triedOnce)
  })

  it('keeps 500 paths at most, and matches any other path as before', async () => {
    const { handler, tried } = countingHandler()
    await matchesOf(handler, '/about')
    for (let i = 0; i < 500; i++) await matchesOf(handler, `/news/article-${i}`)
    const before = tried.count
    expect((await matchesOf(handler, '/about')).map((match) => match.route.id)).toEqual(['root', 'about'])
    expect(tried.count).toBeGreaterThan(before)
    const longSlug = 'a'.repeat(300)
    expect((await matchesOf(handler, `/news/${longSlug}`))[2].params).toEqual({ slug: longSlug })
  })

  it("answers a loader's Response without reading its body", async () => {
    let bodyReads = 0
    class WatchedResponse extends Response {
      override get body() {
        bodyReads++
        return super.body
      }
    }
    const handler = createStaticHandler([
      { id: 'root', path: '/', loader: () => new WatchedResponse('moved', { status: 302, headers: { Location: '/about' } }) },
    ])
    const answer = await handler.query(new Request('http://localhost/'))
    expect(answer instanceof Response && answer.headers.get('location')).toBe('/about')
    expect(bodyReads).toBe(0)
  })
})
