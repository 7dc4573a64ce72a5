import { data, Link } from 'react-router'
import type { Route } from './+types/signups'
import { AdminTable } from '~/components/admin-table'
import { ConfirmButton } from '~/components/confirm-button'
import { ErrorList } from '~/components/forms'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { getEventNameForAdmin, listSignupDatesForAdmin, listSignupsForAdmin } from '~/modules/events/signups.queries.server'
import { DeleteSignupSchema } from '~/modules/events/signups.schema'
import { deleteSignup } from '~/modules/events/signups.service.server'
import { emailSiteOf } from '~/modules/events/signups.emails.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { formatDate, formatPlainDate, parsePlainDate } from '~/platform/dates'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { declareQueryParams } from '~/platform/query-params'
import { redirectWithToast } from '~/platform/toast.server'

/** Who signed up for an event, per date: administrators only (personal data). */

export const meta: Route.MetaFunction = ({ data }) => [{ title: `Sign-ups: ${data?.event.title ?? 'Event'} | Site admin` }]

export const queryParams = declareQueryParams('date')

async function eventOf(id: string) {
  const event = await getEventNameForAdmin(id)
  if (!event) throw data('Event not found', { status: 404 })
  return event
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAccess(request, 'events')
  const { timeZone } = await siteSettingsFor(context)
  const event = await eventOf(params.id)
  const dates = await listSignupDatesForAdmin(event.id, { timeZone })
  const asked = parsePlainDate(queryParams.read(request).date)
  const date = asked ?? dates.find((d) => d.entries > 0)?.date ?? dates[0]?.date ?? null
  const rows = date ? await listSignupsForAdmin(event.id, date) : []
  const confirmed = rows.filter((r) => r.status === 'confirmed')
  return {
    event,
    date,
    dateLabel: date ? formatPlainDate(date) : null,
    dates: dates.map((d) => ({ ...d, label: formatPlainDate(d.date, 'shortWeekdayDate') })),
    people: confirmed.reduce((sum, r) => sum + r.partySize, 0),
    waiting: rows.length - confirmed.length,
    rows: rows.map((r) => ({ ...r, createdLabel: formatDate(r.createdAt, timeZone, 'shortWeekdayDateTime') })),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireAccess(request, 'events')
  const submission = await parseFormSubmission(request, DeleteSignupSchema)
  if (submission.status !== 'success') return data({ error: 'The sign-up to delete was not named.' }, { status: 400 })
  const removed = await deleteSignup(params.id, submission.value.id, emailSiteOf(await siteSettingsFor(context)))
  const back = `/admin/events/${encodeURIComponent(params.id)}/signups${removed ? `?date=${removed.date}` : ''}`
  if (!removed) return redirectWithToast(back, 'This sign-up had been deleted already.', 'error')
  // The person's name stays out of the log: deleted for good means from there too.
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'signup.deleted',
    target: { type: 'event', id: params.id, label: `${removed.eventTitle}, ${removed.date}` },
  })
  const promoted = removed.promoted.length
  return redirectWithToast(
    back,
    promoted > 0 ? `Sign-up deleted; ${promoted} moved up from the waiting list.` : 'Sign-up deleted for good.',
  )
}

export default function EventSignups({ loaderData, actionData }: Route.ComponentProps) {
  const { event, date, dateLabel, dates, rows, people, waiting } = loaderData
  const base = `/admin/events/${encodeURIComponent(event.id)}/signups`
  return (
    <div className="stack">
      <p>
        <Link to={`/admin/events/${encodeURIComponent(event.id)}`}>Edit {event.title}</Link>
      </p>
      <h1>Sign-ups: {event.title}</h1>
      <ErrorList errors={actionData ? [actionData.error] : null} variant="form" />
      {dates.length > 0 ? (
        <nav aria-label="Dates" className="button-row">
          {dates.map((d) => (
            <Link
              key={d.date}
              to={`${base}?date=${d.date}`}
              className="button-secondary button-small"
              aria-current={d.date === date ? 'page' : undefined}
            >
              {d.label} ({d.entries})
            </Link>
          ))}
        </nav>
      ) : null}
      {date === null ? (
        <p>This event has no dates to come and nobody signed up.</p>
      ) : (
        <section className="admin-section" aria-labelledby="signups-date">
          <h2 id="signups-date">{dateLabel}</h2>
          <p>
            {people === 1 ? '1 person' : `${people} people`} confirmed
            {waiting > 0 ? `, ${waiting} on the waiting list` : ''}.
          </p>
          {rows.length > 0 ? (
            <>
              <p>
                <a href={`${base}.csv?date=${date}`} className="button-secondary button-small" download>
                  Download CSV
                </a>
              </p>
              <AdminTable
                caption={`Sign-ups for ${dateLabel}`}
                columns={['Name', 'E-mail', 'WhatsApp', 'People', 'Status', 'Signed up']}
                actions
              >
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td data-label="Name">{r.name}</td>
                    <td data-label="E-mail">{r.email ?? ''}</td>
                    <td data-label="WhatsApp">{r.whatsapp ?? ''}</td>
                    <td data-label="People">{r.partySize}</td>
                    <td data-label="Status">
                      {r.status === 'confirmed'
                        ? r.promotedAt
                          ? 'Confirmed (from the waiting list)'
                          : 'Confirmed'
                        : 'Waiting list'}
                    </td>
                    <td data-label="Signed up">{r.createdLabel}</td>
                    <td>
                      <ConfirmButton
                        hiddenFields={{ intent: 'delete', id: r.id }}
                        label="Delete"
                        confirmText={`Delete the sign-up of ${r.name} for good? The first on the waiting list gets the places.`}
                        confirmLabel="Delete for good"
                        className="button-danger button-small"
                      />
                    </td>
                  </tr>
                ))}
              </AdminTable>
            </>
          ) : (
            <p>Nobody has signed up for this date yet.</p>
          )}
        </section>
      )}
    </div>
  )
}
