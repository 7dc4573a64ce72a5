import { data, useOutlet, type ShouldRevalidateFunctionArgs, Link } from 'react-router'
import type { Route } from './+types/index'
import { MonthView } from './month-view'
import { editHandle } from '~/components/admin-bar'
import { canManage } from '~/platform/access'
import { AdminEntryLink } from '~/components/admin-entry-link'
import { useRootData } from '~/components/root-data'
import { NewsletterSignup } from '~/components/newsletter-signup'
import { OPENED_OVER_LIST, RouteDialog } from '~/components/route-dialog'
import { getPublicCalendarMonth } from '~/modules/events/events.month-view.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { monthOf, parsePlainMonth, todayIn } from '~/platform/dates'
import { pageMeta } from '~/platform/seo'
import { getSiteOrigin } from '~/platform/site-url.server'
import { declareQueryParams } from '~/platform/query-params'

export const links: Route.LinksFunction = () => [
  { rel: 'alternate', type: 'text/calendar', title: 'Calendar', href: '/calendar.ics' },
]

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: 'Calendar',
    description: 'Upcoming events, meetings and the monthly food and clothing distribution.',
  })

export const queryParams = declareQueryParams('month')

/** The admin bar's "Edit this page". */
export const handle = editHandle(() => ({ section: 'events', path: '/admin/events' }))

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Loaded directly, /calendar/<event> shows the event alone: the month is not needed (see shouldRevalidate).
  if (params.slug) return { calendar: null }
  const { timeZone } = await siteSettingsFor(context)
  const now = new Date()
  const today = todayIn(timeZone, now)
  const monthParam = queryParams.read(request).month
  const month = monthParam === null ? monthOf(today) : parsePlainMonth(monthParam)
  if (!month) throw data(null, { status: 404 })
  const origin = getSiteOrigin(request, context)
  return {
    calendar: {
      ...(await getPublicCalendarMonth(month, { timeZone, now })),
      subscribeUrl: `${origin.replace(/^https?:/, 'webcal:')}/calendar.ics`,
    },
  }
}

export function shouldRevalidate({
  currentUrl,
  currentParams,
  nextParams,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // Opening an event over the month, or another date of it inside the dialog: the month stays as it is.
  if (nextParams.slug && (currentParams.slug || currentUrl.pathname === '/calendar')) return false
  // Leaving an event: if it was loaded on its own, the month was skipped, so fetch it now.
  if (currentParams.slug && !nextParams.slug) return true
  return defaultShouldRevalidate
}

export default function Calendar({ loaderData }: Route.ComponentProps) {
  const { calendar } = loaderData
  const event = useOutlet({ inDialog: calendar !== null })
  const { user } = useRootData()
  // A direct load of an event: the event's own page.
  if (!calendar) return event
  const admin = canManage(user, 'events')
  const { month, monthLabel, previous, next, isCurrentMonth, weeks, upcoming, upcomingCountLabel, upcomingDatesLabel } = calendar

  return (
    <div className="container section calendar-page">
      <header className="calendar-header">
        <div>
          <h1>Calendar</h1>
          <p className="calendar-count">{upcomingCountLabel}</p>
        </div>
        <div className="button-row">
          {admin ? (
            <Link to="/admin/events/new?from=calendar" className="button button-small">
              <span aria-hidden="true">+</span> Add event
            </Link>
          ) : null}
          <a href={calendar.subscribeUrl} className="button-secondary button-small">
            Subscribe
          </a>
          <a href="/calendar.ics" className="calendar-feed-link" download="calendar.ics">
            iCal feed (.ics)
          </a>
        </div>
      </header>

      <div className="calendar-layout">
        <MonthView {...{ month, monthLabel, previous, next, isCurrentMonth, weeks, admin }} />

        <aside className="calendar-sidebar" aria-labelledby="calendar-upcoming">
          <h2 id="calendar-upcoming">Upcoming Events</h2>
          {upcomingDatesLabel ? <p className="calendar-upcoming-note">{upcomingDatesLabel}</p> : null}
          {upcoming.length === 0 ? (
            <p className="calendar-empty">No upcoming events scheduled</p>
          ) : (
            <ol className="calendar-upcoming">
              {upcoming.map((e) => (
                <li key={e.key} className="calendar-upcoming-item">
                  <span className="calendar-upcoming-date" aria-hidden="true">
                    <span>{e.monthShort}</span>
                    <span className="calendar-upcoming-day">{e.day}</span>
                  </span>
                  <span className="calendar-upcoming-text">
                    <Link to={e.href} state={OPENED_OVER_LIST} preventScrollReset className="calendar-upcoming-link">
                      {e.title}
                    </Link>
                    <span className="calendar-upcoming-when">{e.when}</span>
                    <span className="calendar-upcoming-location">{e.location}</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
          <NewsletterSignup idPrefix="calendar-signup" heading="Dates by e-mail" headingLevel={3} defaultTopics={['events']} />
        </aside>
      </div>

      <AdminEntryLink section="events" returnTo="/calendar" />
      {event ? (
        <RouteDialog labelledBy="event-title" closeTo={`/calendar?month=${month}`} closeLabel="Close event">
          {event}
        </RouteDialog>
      ) : null}
    </div>
  )
}
