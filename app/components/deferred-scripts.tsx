import { useContext } from 'react'
import { UNSAFE_FrameworkContext as FrameworkContext, useMatches } from 'react-router'

/**
 * React Router's `<Scripts>`, asked for only once the page and its pictures have loaded, so that a
 * slow phone gets text and pictures first (decision 021). The inline scripts hand React Router
 * what its own `<Scripts>` does (react-router 7.18, routeDiscovery "initial").
 */
export function DeferredScripts({ nonce }: { nonce: string }) {
  const framework = useContext(FrameworkContext)
  const matches = useMatches()
  const onServer = typeof document === 'undefined'
  if (!framework) return null
  let handOver = ''
  let start = ''
  if (onServer) {
    const { manifest, serverHandoffString, renderMeta } = framework
    // Streamed loader data is written after the page only when scripts are there to read it.
    if (renderMeta) renderMeta.didRenderScripts = true
    handOver =
      `window.__reactRouterContext = ${serverHandoffString};` +
      'window.__reactRouterContext.stream = new ReadableStream({start(controller){window.__reactRouterContext.streamController = controller;}}).pipeThrough(new TextEncoderStream());'
    start = startScriptOf(
      manifest,
      matches.map((match) => match.id),
    )
  }
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: handOver }} />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: start }} />
    </>
  )
}

type Manifest = NonNullable<React.ContextType<typeof FrameworkContext>>['manifest']

// The same for every page of a build that has the same routes: made once for each.
const startScripts = new WeakMap<Manifest, Map<string, string>>()

/** The script that loads the build's files for these routes once the page and its pictures have loaded. */
function startScriptOf(manifest: Manifest, routeIds: string[]): string {
  let byRoutes = startScripts.get(manifest)
  if (!byRoutes) startScripts.set(manifest, (byRoutes = new Map()))
  const key = routeIds.join(' ')
  let script = byRoutes.get(key)
  if (script === undefined) byRoutes.set(key, (script = startScript(manifest, routeIds)))
  return script
}

function startScript(manifest: Manifest, routeIds: string[]): string {
  // Route ids and built file names need no escaping; React Router escapes its own data.
  const routes = routeIds.flatMap((id) => {
    const route = manifest.routes[id]
    return route ? [{ id, module: route.module, imports: route.imports ?? [] }] : []
  })
  const files = [...new Set([manifest.url, ...manifest.entry.imports, ...routes.flatMap((r) => [r.module, ...r.imports])])]
  // All files download at once; the modules then run in React Router's order (root first: it
  // sets up what later modules read, such as zod's settings).
  return `(() => {
  const files = ${JSON.stringify(files)};
  const routes = ${JSON.stringify(routes.map((r) => [r.id, r.module]))};
  const hydrate = async () => {
    for (const href of files) document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href }));
    await import(${JSON.stringify(manifest.url)});
    const modules = {};
    for (const [id, module] of routes) modules[id] = await import(module);
    window.__reactRouterRouteModules = modules;
    await import(${JSON.stringify(manifest.entry.module)});
  };
  let started = false;
  const start = () => { if (!started) { started = true; hydrate(); } };
  addEventListener('load', () => {
    // The pictures the load event waited for are decoded, then drawn in the next frame, which is
    // on screen by the one after it: they are seen before any script is parsed. A picture that
    // never decodes, or a tab in the background (it draws no frames), waits two seconds at most.
    setTimeout(start, 2000);
    const pictures = [...document.images].filter((img) => img.loading !== 'lazy' && img.decode);
    Promise.all(pictures.map((img) => img.decode().catch(() => {})))
      .then(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start))));
  }, { once: true });
})();`
}
