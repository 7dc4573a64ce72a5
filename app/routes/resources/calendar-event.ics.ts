import type { Route } from './+types/calendar-event.ics'
import { buildCalendarFile } from '~/modules/events/events.calendar-apps.server'
import { getEventForCalendarFile } from '~/modules/events/events.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** One event (a series with all its dates) as an .ics file: "Add to calendar". */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const [event, settings] = await Promise.all([getEventForCalendarFile(params.slug), siteSettingsFor(context)])
  if (!event) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  const body = buildCalendarFile([event], {
    name: event.title,
    origin: getSiteOrigin(request, context),
    timeZone: settings.timeZone,
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      // The slug is made of a-z, 0-9 and '-' only.
      'Content-Disposition': `attachment; filename="${event.slug}.ics"`,
      'Cache-Control': CACHE_PROFILES.feed,
    },
  })
}
