import type { Route } from './+types/calendar.ics'
import { buildCalendarFile } from '~/modules/events/events.calendar-apps.server'
import { listEventsForFeed } from '~/modules/events/events.queries.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { cachedUntilContentChanges } from '~/platform/content-cache.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

// Every subscribed phone asks for the feed every few hours: it is built once per change, per origin.
const calendarFeedFor = cachedUntilContentChanges(async (origin) => {
  const [events, settings] = await Promise.all([listEventsForFeed(), getSiteSettings()])
  return buildCalendarFile(events, {
    name: settings.organisationName,
    origin,
    timeZone: settings.timeZone,
  })
})

/** Every event as an iCalendar feed (RFC 5545) that phones and calendar apps subscribe to. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const body = await calendarFeedFor(getSiteOrigin(request, context))
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="calendar.ics"',
      'Cache-Control': CACHE_PROFILES.calendarFeed,
    },
  })
}
