import { data, redirect, useLocation, useOutletContext, Link } from 'react-router'
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
import { getSignupState } from '~/modules/events/signups.queries.server'
import { SignUpSchema, SIGNUP_MESSAGES } from '~/modules/events/signups.schema'
import { signUpForEvent } from '~/modules/events/signups.service.server'
import { emailSiteOf } from '~/modules/events/signups.emails.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { logger } from '~/platform/logger.server'
import { retryAfterHeaders } from '~/platform/rate-limit.server'
import { canManage } from '~/platform/access'
import { requestInfoContext } from '~/platform/request-context'
import { SignupSection } from './signup-form'
import { BackLink } from '~/components/back-link'

/** The admin bar's "Edit this page". */
export const handle = {
  ...editHandle<Route.ComponentProps['loaderData']>(({ event }) => ({
    section: 'events',
    path: `/admin/events/${encodeURIComponent(event.id)}`,
  })),
  ...WITHOUT_SCRIPTS,
}

export const queryParams = declareQueryParams('date', previewQueryParam)

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { timeZone } = await siteSettingsFor(context)
  const dateParam = queryParams.read(request).date
  const date = parsePlainDate(dateParam)
  // A day that is no date, or outside the calendar's years: not a page of this event.
  if (dateParam !== null && !date) throw data(null, { status: 404 })
  const origin = getSiteOrigin(request, context)
  const preview = await pagePreview(queryParams.read(request).preview, 'events', {
    url: url.href,
    origin,
    timeZone,
    secure: context.get(requestInfoContext).secure,
  })
  const event = await getEventBySlug(params.slug, { date, timeZone, audience: preview.audience })
  if (!event) throw data(null, { status: 404 })
  const path = `/calendar/${encodeURIComponent(event.slug)}`
  const { occurrence } = event
  // A preview shows the page as it will be; nobody signs up for an event that is not public yet.
  const signup = preview.notice
    ? null
    : await getSignupState(event.signupForm, occurrence.date, new Date(occurrence.startsAt), { timeZone })
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
      signup: signup ? { ...signup, action: `${path}?date=${occurrence.date}` } : null,
      preview: preview.notice,
    },
    { headers: preview.headers },
  )
}

/** A visitor signs up for the date shown: on to their own sign-up page, or the form again with what stands in the way. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, SignUpSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const settings = await siteSettingsFor(context)
  const { clientIp } = context.get(requestInfoContext)
  let signedUp: Awaited<ReturnType<typeof signUpForEvent>>
  try {
    signedUp = await signUpForEvent(params.slug, submission.value, {
      clientKey: clientIp,
      site: emailSiteOf(settings),
      origin: getSiteOrigin(request, context),
      phoneCountryCode: settings.phoneCountryCode,
    })
  } catch (error) {
    logger.error({ err: error }, 'a sign-up could not be saved')
    return data({ result: submission.reply({ formErrors: [SIGNUP_MESSAGES.failed] }) }, { status: 503 })
  }
  switch (signedUp.outcome) {
    case 'signed-up':
      return redirect(`/signups/${signedUp.token}`, 303)
    case 'discarded':
      return redirect(`/calendar/${encodeURIComponent(params.slug)}?date=${submission.value.date}`, 303)
    case 'rate-limited':
      return data(
        { result: submission.reply({ formErrors: [SIGNUP_MESSAGES.tooMany] }) },
        { status: 429, headers: retryAfterHeaders(signedUp) },
      )
    case 'refused': {
      const { field, message } = signedUp
      const reply = field && field !== 'date' ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }
      return data({ result: submission.reply(reply) }, { status: 409 })
    }
  }
}

// A refused (rate-limited) sign-up says when to try again.
export const headers: Route.HeadersFunction = (args) =>
  args.actionHeaders.has('Retry-After') ? args.actionHeaders : previewPageHeaders(args)

export const meta: Route.MetaFunction = (args) => {
  const event = args.loaderData?.event
  if (!event) return []
  return itemPageMeta(args, {
    title: event.title,
    description: `${event.dateLabel}, ${event.timesLabel} · ${event.location}. ${event.descriptionText}`,
    extra: args.loaderData.preview ? [NOINDEX] : [],
  })
}

export default function EventPage({ loaderData, actionData }: Route.ComponentProps) {
  const { event, links, preview, signup } = loaderData
  // Shown inside the calendar's dialog when opened from the calendar; on its own page otherwise.
  const { inDialog } = useOutletContext<{ inDialog: boolean }>()
  const { user } = useRootData()
  const location = useLocation()
  return (
    <>
      {preview ? <PreviewBanner notice={preview} /> : null}
      <article className={inDialog ? 'event-details' : 'container section event-details event-page'}>
        {inDialog ? null : <BackLink to={links.month}>← Calendar</BackLink>}
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

        {signup ? (
          <SignupSection
            state={signup}
            action={signup.action}
            date={event.date}
            dateLabel={event.shortDateLabel}
            lastResult={actionData?.result}
          />
        ) : null}

        {event.later.length > 0 ? (
          <section className="event-section" aria-labelledby="event-later">
            <h2 id="event-later">Next dates</h2>
            <ul className="event-later">
              {event.later.map((o) => (
                <li key={o.date}>
                  <Link to={o.href} replace state={location.state} preventScrollReset className="standalone-link">
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

        {canManage(user, 'events') ? (
          <section className="event-section event-admin" aria-labelledby="event-manage">
            <h2 id="event-manage">Manage</h2>
            <div className="button-row">
              <Link to={`/admin/events/${event.id}?from=calendar`} className="button-secondary button-small">
                Edit event
              </Link>
              {signup && canManage(user, 'signups') ? (
                <Link to={`/admin/events/${event.id}/signups?date=${event.date}`} className="button-secondary button-small">
                  Sign-ups
                </Link>
              ) : null}
              <DeleteEventButton
                id={event.id}
                repeats={event.repeats}
                occurrence={{ date: event.date, label: event.shortDateLabel }}
                from="calendar"
                action="/admin/events"
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
