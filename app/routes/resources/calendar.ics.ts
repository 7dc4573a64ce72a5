import type { Route } from './+types/calendar.ics'
import { buildCalendarFile } from '~/modules/events/events.calendar-apps.server'
import { listEventsForFeed } from '~/modules/events/events.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { getSiteOrigin } from '~/platform/site-url.server'

/** Every event as an iCalendar feed (RFC 5545) that phones and calendar apps subscribe to. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const [events, settings] = await Promise.all([listEventsForFeed(), siteSettingsFor(context)])
  const body = buildCalendarFile(events, {
    name: settings.organisationName,
    origin: getSiteOrigin(request, context),
    timeZone: settings.timeZone,
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="calendar.ics"',
      'Cache-Control': 'public, max-age=900',
    },
  })
}
