import '~/platform/zod-config'
import { data, isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router'
import type { Route } from './+types/root'
import { ErrorContent } from '~/components/error-page'
import { PublicStylesheet } from '~/components/public-stylesheet'
import { useNonce } from '~/components/nonce'
import { useShipsScripts } from '~/components/page-scripts'
import { useOfflineReading } from '~/components/offline-reading'
import { SiteShell } from '~/components/site-shell'
import { Toaster } from '~/components/toaster'
import { waitForSetup } from '~/modules/setup/waiting-for-setup.server'
import { frameSettingsOf, shareSiteSettingsPerRequest, siteSettingsFor } from '~/modules/settings/settings.context.server'
import { bodyTooLargeMessage } from '~/components/body-too-large-notice'
import { getOptionalUser } from '~/platform/auth.server'
import { keepPersonalResponsesPrivate } from '~/platform/private-responses.server'
import { env } from '~/platform/env.server'
import { requestInfoContext } from '~/platform/request-context'
import { notFoundForNulInParams } from '~/platform/route-params.server'
import { currentYearIn } from '~/platform/dates'
import { savesData } from '~/platform/save-data'
import { getSiteOrigin } from '~/platform/site-url.server'
import { takeToast } from '~/platform/toast.server'

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

/**
 * A form post the server did not read because it was too large (server/app.ts) never reaches an
 * action. Page requests arrive as a GET and show the page with a notice instead.
 */
const refuseUnreadBody: Route.MiddlewareFunction = ({ request, context }, next) => {
  if (context.get(requestInfoContext).bodyTooLarge && request.method !== 'GET') {
    throw data(bodyTooLargeMessage(env.maxBodyBytes), { status: 413 })
  }
  return next()
}

export const middleware: Route.MiddlewareFunction[] = [
  waitForSetup,
  notFoundForNulInParams,
  refuseUnreadBody,
  keepPersonalResponsesPrivate,
  shareSiteSettingsPerRequest,
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const [settings, user] = await Promise.all([siteSettingsFor(context), getOptionalUser({ request, context })])
  const { toast, headers } = takeToast(request)
  // The year in the site's own time zone, computed here so server and browser render the same.
  const year = currentYearIn(settings.timeZone)
  return data(
    {
      settings: frameSettingsOf(settings),
      user,
      toast,
      year,
      siteOrigin: getSiteOrigin(request, context),
      // Forms check files against it before sending them.
      uploadLimitBytes: env.maxBodyBytes,
      bodyTooLarge: context.get(requestInfoContext).bodyTooLarge ?? false,
      savesData: savesData(request.headers.get('save-data'), request.headers.get('ect')),
    },
    { headers },
  )
}

/** Pages set their own title and description; this is the fallback (error pages, pages without meta). */
export const meta: Route.MetaFunction = ({ data, error }) => {
  const organisation = data?.settings.organisationName ?? ''
  if (!error) return [{ title: organisation }]
  const notFound = isRouteErrorResponse(error) && error.status === 404
  const title = notFound ? 'Page not found' : 'Unexpected Application Error!'
  return [{ title: organisation ? `${title} | ${organisation}` : title }, { name: 'robots', content: 'noindex' }]
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  const shipsScripts = useShipsScripts()
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#6d28d9" />
        <Meta />
        <PublicStylesheet />
        {/* Stylesheets need no nonce (style-src allows 'self'); '' keeps server and browser markup equal. */}
        <Links nonce="" />
      </head>
      <body>
        {children}
        {shipsScripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  useOfflineReading()
  return (
    <>
      <Outlet />
      <Toaster toast={loaderData.toast} />
    </>
  )
}

/** 404 and 500 pages inside the site's own frame; never a stack trace. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <SiteShell>
      <ErrorContent error={error} />
    </SiteShell>
  )
}
