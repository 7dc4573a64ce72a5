import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { createStaticHandler, createStaticRouter, type RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'

// patches/react-router+7.18.4.patch (decision 040): React Router rebuilt the route tree of the
// whole site for every page it rendered.

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
  it('converts the same routes once, and still matches each request on its own', async () => {
    const home = createStaticRouter(routes, await contextFor('/'))
    const about = createStaticRouter(routes, await contextFor('/about'))
    expect(about.routes).toBe(home.routes)
    expect(home.state.matches.map((match) => match.route.id)).toEqual(['root', 'home'])
    expect(about.state.matches.map((match) => match.route.id)).toEqual(['root', 'about'])
    // The matches carry the converted routes, as without the patch.
    expect(about.state.matches[1].route).toBe(about.routes[0].children![1])
  })

  it('keeps the route tree per build in ServerRouter too, in both of the builds Node may load', () => {
    const folder = path.dirname(createRequire(import.meta.url).resolve('react-router'))
    const withServerRouter = fs
      .readdirSync(folder)
      .filter((name) => /\.m?js$/.test(name))
      .map((name) => fs.readFileSync(path.join(folder, name), 'utf8'))
      .filter((source) => source.includes('function ServerRouter('))
    expect(withServerRouter).toHaveLength(2) // ES module and CommonJS
    for (const source of withServerRouter) expect(source).toContain('serverRoutesOfBuild.get(manifest.routes)')
  })
})
