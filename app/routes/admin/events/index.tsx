import { data, Link } from 'react-router'
import type { Route } from './+types/index'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { AdminBadge, AdminTable } from '~/components/admin-table'
import { DeleteEventButton } from '~/components/delete-event-button'
import { ErrorList } from '~/components/forms'
import { AdminListPagination, adminListTitle } from '~/components/admin-list-pagination'
import { PublicationStateBadge, PublicationStateFilter } from '~/components/publication-state'
import { describePublication, parsePublicationState } from '~/platform/publication'
import { declareQueryParams } from '~/platform/query-params'
import { askedListPage, backToList, listPageCount } from '~/platform/admin-list-page.server'
import { listEventsForAdmin, type AdminEventRow } from '~/modules/events/events.admin-queries.server'
import { formatOccurrenceTimes } from '~/modules/events/events.wording.server'
import { DeleteEventSchema, eventTypeLabel } from '~/modules/events/events.schema'
import { deleteOccurrence } from '~/modules/events/events.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { formatPlainDate, monthOf } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast, redirectWithUndo } from '~/platform/toast.server'
import { moveToTrash } from '~/modules/trash/trash.server'

import adminEventsStylesUrl from '~/styles/admin-events.css?url'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminEventsStylesUrl }]

export const meta: Route.MetaFunction = ({ data }) => [{ title: adminListTitle('Events', data) }]

export const queryParams = declareQueryParams('state', 'page')

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'events')
  const { timeZone } = await siteSettingsFor(context)
  const asked = queryParams.read(request)
  const state = parsePublicationState(asked.state)
  const page = askedListPage(asked.page)
  const { events, total } = await listEventsForAdmin({ timeZone, state, page })
  const pageCount = listPageCount(request, page, total)
  const toRow = (event: AdminEventRow) => ({
    id: event.id,
    title: event.title,
    typeLabel: eventTypeLabel(event.type),
    location: event.location,
    repeats: event.repeat !== 'none',
    repeatText: event.repeatText,
    isSample: event.isSample,
    publication: describePublication(event.publishAt, timeZone),
    date: event.shown.date,
    href: `/calendar/${encodeURIComponent(event.slug)}?date=${event.shown.date}`,
    whenLabel: `${formatPlainDate(event.shown.date, 'date')}, ${formatOccurrenceTimes(event.shown, timeZone)}`,
    shortDateLabel: formatPlainDate(event.shown.date, 'shortWeekdayDate'),
  })
  return {
    state,
    page,
    pageCount,
    upcoming: events.filter((e) => e.upcoming).map(toRow),
    past: events.filter((e) => !e.upcoming).map(toRow),
  }
}

/** The whole event to the trash; its title for the audit log. */
async function trashEvent(id: string): Promise<{ title: string; trashed: true } | undefined> {
  const moved = await moveToTrash('event', id)
  return moved ? { title: moved.label, trashed: true } : undefined
}

/** Deletes an event, a whole series or one date of it (from this list and from the calendar's event details). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'events')
  const submission = await parseFormSubmission(request, DeleteEventSchema)
  if (submission.status !== 'success') {
    return data(
      { error: Object.values(submission.error ?? {}).flat()[0] ?? 'Event ID is required for deletion' },
      { status: 400 },
    )
  }
  const { id, scope, date, from } = submission.value
  const back =
    from === 'calendar' ? (date ? `/calendar?month=${monthOf(date)}` : '/calendar') : backToList(request, '/admin/events')
  const oneDate = scope === 'occurrence' && date ? date : null
  let deleted: { title: string; trashed?: true } | undefined
  try {
    const fromSeries = oneDate ? await deleteOccurrence(id, oneDate) : undefined
    deleted = fromSeries && 'title' in fromSeries ? fromSeries : await trashEvent(id)
  } catch (error) {
    logger.error({ err: error, eventId: id }, 'event could not be deleted')
    return redirectWithToast(back, 'Failed to delete event', 'error')
  }
  if (!deleted) return redirectWithToast(back, 'Event deleted.')
  const oneDateOfSeries = oneDate !== null && !deleted.trashed
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: oneDateOfSeries ? 'event.date-removed' : 'event.deleted',
    target: { type: 'event', id, label: deleted.title },
    detail: oneDateOfSeries ? { date: oneDate } : undefined,
  })
  if (oneDateOfSeries) {
    return redirectWithToast(back, `${formatPlainDate(oneDate, 'date')} was taken out of the series.`)
  }
  return redirectWithUndo(back, 'Event moved to the trash.', { kind: 'event', id })
}

type Row = Route.ComponentProps['loaderData']['upcoming'][number]

function EventRows({ rows }: { rows: Row[] }) {
  return rows.map((event) => (
    <tr key={event.id}>
      <td data-label="Event">
        <Link to={event.href}>{event.title}</Link>
        <AdminBadge>{event.typeLabel}</AdminBadge>
        {event.isSample ? <AdminBadge>sample</AdminBadge> : null}
        <PublicationStateBadge {...event.publication} />
      </td>
      <td data-label="When">
        <time dateTime={event.date}>{event.whenLabel}</time>
        {event.repeatText ? <div className="muted">{event.repeatText}</div> : null}
      </td>
      <td data-label="Location">{event.location}</td>
      <td>
        <div className="button-row">
          <Link to={`/admin/events/${event.id}`} className="button-secondary button-small" aria-label={`Edit ${event.title}`}>
            Edit
          </Link>
          <DeleteEventButton
            id={event.id}
            repeats={event.repeats}
            occurrence={{ date: event.date, label: event.shortDateLabel }}
            className="button-danger button-small"
          />
        </div>
      </td>
    </tr>
  ))
}

export default function AdminEvents({ loaderData, actionData }: Route.ComponentProps) {
  const { upcoming, past, state, page, pageCount } = loaderData
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Events</h1>
        <div className="button-row">
          <Link to="/calendar">View calendar</Link>
          <Link to="/admin/events/new" className="button">
            Add event
          </Link>
        </div>
      </div>
      <ErrorList errors={actionData ? [actionData.error] : null} variant="form" />
      <PublicationStateFilter path="/admin/events" current={state} page={page} />
      {upcoming.length === 0 && past.length === 0 ? (
        <p>
          {state ? 'No events in this state.' : 'No events yet. Events you add appear on the Calendar page and on the home page.'}
        </p>
      ) : null}
      {upcoming.length > 0 ? (
        <section className="admin-section" aria-labelledby="events-upcoming">
          <h2 id="events-upcoming">Upcoming</h2>
          <AdminTable caption="Upcoming events, soonest first" columns={['Event', 'When', 'Location']} actions>
            <EventRows rows={upcoming} />
          </AdminTable>
        </section>
      ) : null}
      {past.length > 0 ? (
        <section className="admin-section" aria-labelledby="events-past">
          <h2 id="events-past">Past</h2>
          <AdminTable caption="Past events, latest first" columns={['Event', 'When', 'Location']} actions>
            <EventRows rows={past} />
          </AdminTable>
        </section>
      ) : null}
      <AdminListPagination path="/admin/events" state={state} page={page} pageCount={pageCount} label="Pages of events" />
    </div>
  )
}
