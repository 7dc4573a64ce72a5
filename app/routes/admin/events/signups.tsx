import { data, Form, Link } from 'react-router'
import { formatWhatsAppNumber } from '~/platform/phone-numbers'
import type { Route } from './+types/signups'
import { AdminTable } from '~/components/admin-table'
import { ConfirmButton } from '~/components/confirm-button'
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { CheckboxField, ErrorList, Field, TextareaField } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { getEventNameForAdmin, listSignupDatesForAdmin, listSignupsForAdmin } from '~/modules/events/signups.queries.server'
import { ManageSignupsSchema, SignupMessageSchema } from '~/modules/events/signups.schema'
import { deleteSignup, messageSignups } from '~/modules/events/signups.service.server'
import { batchProgress, OutgoingMailQuotaError } from '~/modules/outgoing-mail/outgoing-mail.server'
import { emailSiteOf } from '~/modules/events/signups.emails.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { formatDate, formatPlainDate, parsePlainDate } from '~/platform/dates'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { declareQueryParams } from '~/platform/query-params'
import { redirectWithToast } from '~/platform/toast.server'

/** Who signed up for an event, per date: administrators only (personal data). */

export const meta: Route.MetaFunction = ({ data }) => [{ title: `Sign-ups: ${data?.event.title ?? 'Event'} | Site admin` }]

// message: the batch of the message just sent, whose sending the page follows.
export const queryParams = declareQueryParams('date', 'message')

const BATCH_ID = /^[0-9a-f-]{36}$/

async function eventOf(id: string) {
  const event = await getEventNameForAdmin(id)
  if (!event) throw data('Event not found', { status: 404 })
  return event
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'signups')
  const { timeZone } = await siteSettingsFor(context)
  const event = await eventOf(params.id)
  const dates = await listSignupDatesForAdmin(event.id, { timeZone })
  const query = queryParams.read(request)
  const asked = parsePlainDate(query.date)
  const date = asked ?? dates.find((d) => d.entries > 0)?.date ?? dates[0]?.date ?? null
  const rows = date ? await listSignupsForAdmin(event.id, date) : []
  const confirmed = rows.filter((r) => r.status === 'confirmed')
  const batch = query.message && BATCH_ID.test(query.message) ? await batchProgress(query.message) : null
  return {
    messageProgress: batch && batch.sent + batch.waiting + batch.failed > 0 ? batch : null,
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
  const user = await requireAccess({ request, context }, 'signups')
  const submission = await parseFormSubmission(request, ManageSignupsSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const site = emailSiteOf(await siteSettingsFor(context))
  const event = await eventOf(params.id)
  const date = parsePlainDate(queryParams.read(request).date)
  const back = `/admin/events/${encodeURIComponent(event.id)}/signups${date ? `?date=${date}` : ''}`
  if (submission.value.intent === 'message') {
    if (!date) return data({ result: submission.reply({ formErrors: ['Choose a date first.'] }) }, { status: 400 })
    let sent: Awaited<ReturnType<typeof messageSignups>>
    try {
      sent = await messageSignups(event.id, date, submission.value, site)
    } catch (error) {
      if (!(error instanceof OutgoingMailQuotaError)) throw error
      return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: 503 })
    }
    const { queued, batchId } = sent
    await recordAuditEvent({
      by: auditSourceOf(user, context),
      action: 'signup.messaged',
      target: { type: 'event', id: event.id, label: `${event.title}, ${date}` },
      detail: { recipients: queued },
    })
    return redirectWithToast(
      `${back}&message=${batchId}`,
      queued === 1 ? 'Message queued for 1 person.' : `Message queued for ${queued} people.`,
    )
  }
  const removed = await deleteSignup(event.id, submission.value.id, site)
  if (!removed) return redirectWithToast(back, 'This sign-up had been deleted already.', 'error')
  // The person's name stays out of the log: deleted for good means from there too.
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'signup.deleted',
    target: { type: 'event', id: event.id, label: `${removed.eventTitle}, ${removed.date}` },
  })
  const promoted = removed.promoted.length
  return redirectWithToast(
    `/admin/events/${encodeURIComponent(event.id)}/signups?date=${removed.date}`,
    promoted > 0 ? `Sign-up deleted; ${promoted} moved up from the waiting list.` : 'Sign-up deleted for good.',
  )
}

export default function EventSignups({ loaderData, actionData }: Route.ComponentProps) {
  const { event, date, dateLabel, dates, rows, people, waiting, messageProgress } = loaderData
  const base = `/admin/events/${encodeURIComponent(event.id)}/signups`
  return (
    <div className="stack">
      <p>
        <Link to={`/admin/events/${encodeURIComponent(event.id)}`}>Edit {event.title}</Link>
      </p>
      <h1>Sign-ups: {event.title}</h1>
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
          {messageProgress ? (
            <p role="status">
              Your message: {messageProgress.sent} sent, {messageProgress.waiting} waiting to be sent, {messageProgress.failed}{' '}
              failed.
            </p>
          ) : null}
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
                    <td data-label="WhatsApp">{r.whatsapp ? formatWhatsAppNumber(r.whatsapp) : ''}</td>
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
      {date !== null && rows.some((r) => r.email) ? (
        <MessageForm action={`${base}?date=${date}`} lastResult={actionData?.result} />
      ) : null}
    </div>
  )
}

/** A message to the people of the date, sent one e-mail each through the outgoing mail. */
function MessageForm({ action, lastResult }: { action: string; lastResult?: SubmissionResult<string[]> }) {
  const sending = useIsSubmitting()
  const [form, fields] = useForm({
    id: 'signup-message',
    lastResult: sending ? undefined : lastResult,
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignupMessageSchema }),
  })
  return (
    <section className="admin-section" aria-labelledby="signups-message">
      <h2 id="signups-message">Write to them</h2>
      <Form method="post" action={action} className="form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="message" />
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <Field meta={fields.subject} label="Subject" maxLength={150} />
        <TextareaField
          meta={fields.body}
          label="Message"
          rows={6}
          maxLength={5_000}
          hint="Each person gets it by e-mail, with the link to their own sign-up."
        />
        <CheckboxField meta={fields.includeWaiting} label="Also to those on the waiting list" />
        <div>
          <button type="submit" className="button" disabled={sending}>
            {sending ? 'Sending...' : 'Send the message'}
          </button>
        </div>
      </Form>
    </section>
  )
}
