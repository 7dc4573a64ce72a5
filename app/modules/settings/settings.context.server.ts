import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { cachedUntilContentChanges, type Shared } from '~/platform/content-cache.server'
import { getSiteSettings } from './settings.queries.server'
import { FRAME_SETTINGS, type FrameSettings, type SiteSettings } from './settings.schema'

// Read for every page, the same for every visitor, changed rarely: made once per content version.
const cachedSiteSettings = cachedUntilContentChanges(() => getSiteSettings(), 1)

// The root loader and the page's own loader both need the settings: one lookup per request.
// Without the middleware (a loader called on its own), each call looks them up afresh.
const siteSettingsContext = createContext<() => Promise<Shared<SiteSettings>>>(() => cachedSiteSettings(''))

/** Root middleware: the first loader that asks looks the settings up; the others share that answer. */
export const shareSiteSettingsPerRequest: MiddlewareFunction<Response> = ({ context }, next) => {
  let settings: Promise<Shared<SiteSettings>> | undefined
  context.set(siteSettingsContext, () => (settings ??= cachedSiteSettings('')))
  return next()
}

/** The site settings for this request (shared with other requests until something a public page shows changes). */
export function siteSettingsFor(context: Readonly<RouterContextProvider>): Promise<Shared<SiteSettings>> {
  return context.get(siteSettingsContext)()
}

/** The settings every page's frame uses (FRAME_SETTINGS). */
export function frameSettingsOf(settings: Shared<SiteSettings>): Shared<FrameSettings> {
  return Object.fromEntries(FRAME_SETTINGS.map((key) => [key, settings[key]])) as Shared<FrameSettings>
}
