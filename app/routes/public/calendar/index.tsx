import { data, useOutlet, type ShouldRevalidateFunctionArgs } from 'react-router'
import { Link } from '~/components/link'
import type { Route } from './+types/index'
import { editHandle } from '~/components/admin-bar'
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

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

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
      ...(await getPublicCalendarMonth(context, month, { timeZone, now })),
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

type CalendarData = NonNullable<Route.ComponentProps['loaderData']['calendar']>
type Day = CalendarData['weeks'][number][number]

export default function Calendar({ loaderData }: Route.ComponentProps) {
  const { calendar } = loaderData
  const event = useOutlet({ inDialog: calendar !== null })
  const { user } = useRootData()
  // A direct load of an event: the event's own page.
  if (!calendar) return event
  const admin = user?.role === 'admin'
  const { month, monthLabel, previous, next, isCurrentMonth, weeks, upcoming, upcomingCountLabel, upcomingDatesLabel } = calendar
  const daysWithEvents = weeks.flat().filter((day) => day.inMonth && day.events.length > 0)

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
        <section className="calendar-month" aria-labelledby="calendar-month-label">
          <div className="calendar-toolbar">
            <h2 id="calendar-month-label" aria-live="polite">
              {monthLabel}
            </h2>
            <nav aria-label="Months" className="calendar-nav">
              <Link to={`/calendar?month=${previous.month}`} className="button-secondary button-small" preventScrollReset>
                <span aria-hidden="true">‹ </span>Previous<span className="visually-hidden"> month, {previous.label}</span>
              </Link>
              <Link
                to="/calendar"
                className="button-secondary button-small"
                aria-current={isCurrentMonth ? 'date' : undefined}
                preventScrollReset
              >
                Today
              </Link>
              <Link to={`/calendar?month=${next.month}`} className="button-secondary button-small" preventScrollReset>
                Next<span className="visually-hidden"> month, {next.label}</span>
                <span aria-hidden="true"> ›</span>
              </Link>
            </nav>
          </div>

          <table className="calendar-grid">
            <caption className="visually-hidden">Events in {monthLabel}</caption>
            <thead>
              <tr>
                {WEEKDAYS.map((weekday) => (
                  <th key={weekday} scope="col">
                    <abbr title={weekday}>{weekday.slice(0, 3)}</abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week[0].date}>
                  {week.map((day) => (
                    <DayCell key={day.date} day={day} admin={admin} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>

          <div className="calendar-agenda">
            {daysWithEvents.length === 0 ? (
              <p className="calendar-empty">No events in {monthLabel}.</p>
            ) : (
              <ol className="calendar-agenda-days">
                {daysWithEvents.map((day) => (
                  <li key={day.date} className={day.isToday ? 'calendar-agenda-day is-today' : 'calendar-agenda-day'}>
                    <h3 className="calendar-agenda-date">
                      <time dateTime={day.date}>{day.label}</time>
                      {day.isToday ? <span className="calendar-today-badge">Today</span> : null}
                    </h3>
                    <ul className="calendar-agenda-events">
                      {day.events.map((e) => (
                        <li key={e.key}>
                          <Link to={e.href} state={OPENED_OVER_LIST} preventScrollReset className="calendar-agenda-event">
                            <span className="calendar-agenda-time">{e.time}</span>
                            <span className="calendar-agenda-title">{e.title}</span>
                            <span className="calendar-agenda-location">{e.location}</span>
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ol>
            )}
            {admin ? (
              <p>
                <Link to={`/admin/events/new?from=calendar&date=${month}-01`} className="button-secondary button-small">
                  <span aria-hidden="true">+</span> Add an event in {monthLabel}
                </Link>
              </p>
            ) : null}
          </div>
        </section>

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

function DayCell({ day, admin }: { day: Day; admin: boolean }) {
  const className = ['calendar-day', day.inMonth ? '' : 'is-other-month', day.isToday ? 'is-today' : ''].filter(Boolean).join(' ')
  const number = (
    <time dateTime={day.date} className="calendar-day-number">
      <span aria-hidden="true">{day.day}</span>
      <span className="visually-hidden">{day.label}</span>
    </time>
  )
  return (
    <td className={className} aria-current={day.isToday ? 'date' : undefined}>
      {/* A visitor's cell holds no wrapper: a month has up to 42 cells, each rendered on every visit. */}
      {admin ? (
        <div className="calendar-day-head">
          {number}
          <Link
            to={`/admin/events/new?from=calendar&date=${day.date}`}
            className="calendar-add"
            aria-label={`Add an event on ${day.label}`}
          >
            +
          </Link>
        </div>
      ) : (
        number
      )}
      {day.events.length > 0 ? (
        <ul className="calendar-chips">
          {day.events.map((e) => (
            <li key={e.key}>
              <Link
                to={e.href}
                state={OPENED_OVER_LIST}
                preventScrollReset
                className={`calendar-chip event-type-${e.type}`}
                title={`${e.time} ${e.title}`}
              >
                <span className="calendar-chip-time">{e.time}</span>
                <span className="calendar-chip-title">{e.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </td>
  )
}
