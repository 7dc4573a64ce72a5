import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { getSiteSettings } from './settings.queries.server'
import type { SiteSettings } from './settings.schema'

// The root loader and the page's own loader both need the settings: read them once per request.
// Without the middleware (a loader called on its own), each call reads them afresh.
const siteSettingsContext = createContext<() => Promise<SiteSettings>>(getSiteSettings)

/** Root middleware: the first loader that asks reads the settings; the others share that read. */
export const shareSiteSettingsPerRequest: MiddlewareFunction<Response> = ({ context }, next) => {
  let settings: Promise<SiteSettings> | undefined
  context.set(siteSettingsContext, () => (settings ??= getSiteSettings()))
  return next()
}

/** The site settings for this request (read at most once per request). */
export function siteSettingsFor(context: Readonly<RouterContextProvider>): Promise<SiteSettings> {
  return context.get(siteSettingsContext)()
}
