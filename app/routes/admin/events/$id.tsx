import { data, Link } from 'react-router'
import { BackLink } from '~/components/back-link'
import { getSiteOrigin } from '~/platform/site-url.server'
import { withSiteLinksRelative } from '~/platform/site-links'
import type { Route } from './+types/$id'
import { ViewOrPreview } from '~/components/view-or-preview'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { EventForm } from './event-form'
import { DeleteEventButton } from '~/components/delete-event-button'
import { getEventForEdit } from '~/modules/events/events.admin-queries.server'
import { EventSchema } from '~/modules/events/events.schema'
import { EventNotFoundError, updateEvent } from '~/modules/events/events.service.server'
import { emailSiteOf } from '~/modules/events/signups.emails.server'
import { promoteAfterFormChange } from '~/modules/events/signups.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { publishingOf } from '~/platform/publication.server'
import { redirectToTrash } from '~/modules/trash/trash.server'
import { publishChoiceDefaults } from '~/platform/publication'
import { canManage } from '~/platform/access'
import { requireAccess } from '~/platform/auth.server'
import { formatPlainDate } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'
import adminEventsStylesUrl from '~/styles/admin-events.css?url'
import { declareQueryParams } from '~/platform/query-params'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminEventsStylesUrl }]

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.event.title ?? 'Event'} | Site admin` }]

export const queryParams = declareQueryParams('from')

const fromCalendar = (request: Request) => queryParams.read(request).from === 'calendar'

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'events')
  const { timeZone } = await siteSettingsFor(context)
  const event = await getEventForEdit(params.id, timeZone)
  if (!event) throw data('Event not found', { status: 404 })
  if (event.trashedAt) throw redirectToTrash(event.title)
  const eventPath = `/calendar/${encodeURIComponent(event.slug)}`
  return {
    event,
    publishing: publishChoiceDefaults(event.publishAt, timeZone),
    timeZone,
    eventPath,
    cancelTo: fromCalendar(request) ? eventPath : '/admin/events',
    skippedDates: (event.values.skippedDates ?? []).map((date) => ({ date, label: formatPlainDate(date) })),
    showsSignups: canManage(user, 'signups'),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'events')
  const submission = await parseFormSubmission(request, EventSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { timeZone } = await siteSettingsFor(context)
  let slug: string
  try {
    const publishing = await publishingOf(submission.value, timeZone, { table: 'events', id: params.id })
    ;({ slug } = await updateEvent(
      params.id,
      { ...withSiteLinksRelative(submission.value, 'description', getSiteOrigin(request, context)), ...publishing },
      timeZone,
    ))
  } catch (error) {
    if (error instanceof EventNotFoundError) {
      return redirectWithToast('/admin/events', 'This event has been deleted in the meantime.', 'error')
    }
    logger.error({ err: error, eventId: params.id }, 'event could not be updated')
    return data({ result: submission.reply({ formErrors: ['Failed to update event'] }) }, { status: 500 })
  }
  // More places, or no limit any more: those waiting get them now.
  await promoteAfterFormChange(params.id, emailSiteOf(await siteSettingsFor(context)))
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'event.edited',
    target: { type: 'event', id: params.id, label: submission.value.title },
  })
  return redirectWithToast(fromCalendar(request) ? `/calendar/${encodeURIComponent(slug)}` : '/admin/events', 'Event updated.')
}

export default function EditEvent({ loaderData, actionData }: Route.ComponentProps) {
  const { event, publishing, timeZone, eventPath, cancelTo, skippedDates, showsSignups } = loaderData
  return (
    <div className="stack">
      <BackLink to="/admin/events">All events</BackLink>
      <div className="admin-page-header">
        <h1>Edit event</h1>
        <div className="button-row">
          {showsSignups ? (
            <Link to={`/admin/events/${event.id}/signups`} className="button-secondary button-small">
              Sign-ups
            </Link>
          ) : null}
          <ViewOrPreview table="events" id={event.id} path={eventPath} publish={publishing.publish} />
        </div>
      </div>
      <EventForm
        key={event.id}
        lastResult={actionData?.result}
        defaultValue={{ ...event.values, ...publishing }}
        skippedDates={skippedDates}
        timeZone={timeZone}
        cancelTo={cancelTo}
        submitLabel="Save changes"
        submittingLabel="Saving..."
      />
      <section className="admin-danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete this event</h2>
        <DeleteEventButton
          id={event.id}
          repeats={event.values.repeat !== undefined && event.values.repeat !== 'none'}
          action="/admin/events"
          label="Delete event"
        />
      </section>
    </div>
  )
}
