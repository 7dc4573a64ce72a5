import { data, Link, useLocation, useOutletContext } from 'react-router'
import type { Route } from './+types/$slug'
import { editHandle } from '~/components/admin-bar'
import { WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { DeleteEventButton } from '~/components/delete-event-button'
import { NewTabLink } from '~/components/new-tab-link'
import { PreviewBanner } from '~/components/preview-banner'
import { pagePreview, previewPageHeaders } from '~/modules/previews/preview-page.server'
import { previewQueryParam } from '~/modules/previews/previews'
import { useRootData } from '~/components/root-data'
import { googleCalendarUrl, mapSearchUrl } from '~/modules/events/events.calendar-apps.server'
import { getEventBySlug } from '~/modules/events/events.queries.server'
import { formatOccurrenceTimes } from '~/modules/events/events.wording.server'
import { eventTypeLabel } from '~/modules/events/events.schema'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { formatPlainDate, monthOf, parsePlainDate } from '~/platform/dates'
import { itemPageMeta, NOINDEX } from '~/platform/seo'
import { getSiteOrigin } from '~/platform/site-url.server'
import { declareQueryParams } from '~/platform/query-params'

/** The admin bar's "Edit this page". */
export const handle = {
  ...editHandle<Route.ComponentProps['loaderData']>(({ event }) => ({
    section: 'events',
    path: `/admin/events/${encodeURIComponent(event.id)}`,
  })),
  ...WITHOUT_SCRIPTS,
}

export const queryParams = declareQueryParams('date', previewQueryParam)

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { timeZone } = await siteSettingsFor(context)
  const dateParam = queryParams.read(request).date
  const date = parsePlainDate(dateParam)
  // A day that is no date, or outside the calendar's years: not a page of this event.
  if (dateParam !== null && !date) throw data(null, { status: 404 })
  const origin = getSiteOrigin(request, context)
  const preview = await pagePreview(queryParams.read(request).preview, 'events', { url: request.url, origin, timeZone })
  const event = await getEventBySlug(params.slug, { date, timeZone, audience: preview.audience })
  if (!event) throw data(null, { status: 404 })
  const path = `/calendar/${encodeURIComponent(event.slug)}`
  const { occurrence } = event
  return data(
    {
      event: {
        id: event.id,
        title: event.title,
        descriptionHtml: event.descriptionHtml,
        descriptionText: event.descriptionText,
        location: event.location,
        type: event.type,
        typeLabel: eventTypeLabel(event.type),
        repeats: event.repeat !== 'none',
        repeatText: event.repeatText,
        date: occurrence.date,
        dateLabel: formatPlainDate(occurrence.date),
        shortDateLabel: formatPlainDate(occurrence.date, 'shortWeekdayDate'),
        timesLabel: formatOccurrenceTimes(occurrence, timeZone),
        startsAt: occurrence.startsAt,
        allDay: occurrence.allDay,
        later: event.laterOccurrences.map((o) => ({
          date: o.date,
          label: `${formatPlainDate(o.date)}, ${formatOccurrenceTimes(o, timeZone)}`,
          href: `${path}?date=${o.date}`,
        })),
      },
      links: {
        month: `/calendar?month=${monthOf(occurrence.date)}`,
        ics: `${path}/event.ics`,
        google: googleCalendarUrl(event, occurrence, { origin, timeZone }),
        map: mapSearchUrl(event.location),
      },
      preview: preview.notice,
    },
    { headers: preview.headers },
  )
}

export const headers: Route.HeadersFunction = previewPageHeaders

export const meta: Route.MetaFunction = (args) => {
  const event = args.loaderData?.event
  if (!event) return []
  return itemPageMeta(args, {
    title: event.title,
    description: `${event.dateLabel}, ${event.timesLabel} · ${event.location}. ${event.descriptionText}`,
    extra: args.loaderData.preview ? [NOINDEX] : [],
  })
}

export default function EventPage({ loaderData }: Route.ComponentProps) {
  const { event, links, preview } = loaderData
  // Shown inside the calendar's dialog when opened from the calendar; on its own page otherwise.
  const { inDialog } = useOutletContext<{ inDialog: boolean }>()
  const { user } = useRootData()
  const location = useLocation()
  return (
    <>
      {preview ? <PreviewBanner notice={preview} /> : null}
      <article className={inDialog ? 'event-details' : 'container section event-details event-page'}>
        {inDialog ? null : (
          <p>
            <Link to={links.month} className="event-back-link">
              ← Calendar
            </Link>
          </p>
        )}
        <p className={`event-tag event-type-${event.type}`}>{event.typeLabel}</p>
        <h1 id="event-title">{event.title}</h1>
        <dl className="event-facts">
          <div>
            <dt>Date</dt>
            <dd>
              <time dateTime={event.allDay ? event.date : event.startsAt}>{event.dateLabel}</time>
            </dd>
          </div>
          <div>
            <dt>Time</dt>
            <dd>{event.timesLabel}</dd>
          </div>
          {event.repeatText ? (
            <div>
              <dt>Repeats</dt>
              <dd>{event.repeatText}</dd>
            </div>
          ) : null}
          <div>
            <dt>Location</dt>
            <dd>
              {event.location}{' '}
              <NewTabLink href={links.map} className="event-map-link">
                Map
              </NewTabLink>
            </dd>
          </div>
        </dl>

        <div className="markdown-text event-description" dangerouslySetInnerHTML={{ __html: event.descriptionHtml }} />

        {event.later.length > 0 ? (
          <section className="event-section" aria-labelledby="event-later">
            <h2 id="event-later">Next dates</h2>
            <ul className="event-later">
              {event.later.map((o) => (
                <li key={o.date}>
                  <Link to={o.href} replace state={location.state} preventScrollReset>
                    {o.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {preview ? null : (
          <section className="event-section" aria-labelledby="event-add">
            <h2 id="event-add">Add to calendar</h2>
            <div className="button-row">
              <a href={links.ics} className="button-secondary button-small" download>
                Download (.ics)
              </a>
              <NewTabLink href={links.google} className="button-secondary button-small">
                Google Calendar
              </NewTabLink>
            </div>
          </section>
        )}

        {user?.role === 'admin' ? (
          <section className="event-section event-admin" aria-labelledby="event-manage">
            <h2 id="event-manage">Manage</h2>
            <div className="button-row">
              <Link to={`/admin/events/${event.id}?from=calendar`} className="button-secondary button-small">
                Edit event
              </Link>
              <DeleteEventButton
                id={event.id}
                repeats={event.repeats}
                occurrence={{ date: event.date, label: event.shortDateLabel }}
                from="calendar"
                label="Delete event"
                className="button-danger button-small"
              />
            </div>
          </section>
        ) : null}
      </article>
    </>
  )
}
