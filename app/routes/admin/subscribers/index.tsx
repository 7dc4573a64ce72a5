import { data, Form } from 'react-router'
import { z } from 'zod'
import { adminListTitle } from '~/components/admin-list-pagination'
import type { Route } from './+types/index'
import { AdminBadge, AdminTable } from '~/components/admin-table'
import { ConfirmButton } from '~/components/confirm-button'
import { ErrorList } from '~/components/forms'
import { Pagination } from '~/components/pagination'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { digestBatchId, getDigestSchedule, sendEventsDigest, setDigestDay } from '~/modules/newsletter/events-digest.server'
import { listSubscribersForAdmin } from '~/modules/newsletter/newsletter.queries.server'
import {
  AddSubscriberSchema,
  LAST_DIGEST_DAY,
  NEWSLETTER_MESSAGES,
  SUBSCRIBER_STATE_LABELS,
  TOPIC_LABELS,
  TOPICS,
} from '~/modules/newsletter/newsletter.schema'
import {
  deleteSubscriber,
  importSubscribers,
  inviteSubscriber,
  pendingSubscribersMax,
  SubscriberRuleError,
} from '~/modules/newsletter/newsletter.service.server'
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, readSubscriberImport } from '~/modules/newsletter/subscriber-import'
import { batchProgress, OutgoingMailQuotaError } from '~/modules/outgoing-mail/outgoing-mail.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { formatDate, formatPlainDate } from '~/platform/dates'
import { canSendEmail } from '~/platform/email.server'
import { env } from '~/platform/env.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { askedListPage, listPageCount } from '~/platform/admin-list-page.server'
import { readCsvFile } from '~/platform/csv'
import { declareQueryParams } from '~/platform/query-params'
import { getSiteOrigin } from '~/platform/site-url.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = ({ data }) => [{ title: adminListTitle('Subscribers', data) }]

export const queryParams = declareQueryParams('page')

const PageSchema = z.discriminatedUnion('intent', [
  AddSubscriberSchema.extend({ intent: z.literal('add') }),
  z.object({
    intent: z.literal('import'),
    file: z
      .file('Choose a CSV file')
      .max(IMPORT_MAX_BYTES, `The file can be at most ${IMPORT_MAX_BYTES / 1024} KB; split it into several.`),
  }),
  z.object({ intent: z.literal('delete'), id: z.string().max(100) }),
  z.object({ intent: z.literal('digest') }),
  z.object({
    intent: z.literal('digest-schedule'),
    // Empty: only by the button.
    day: z.coerce
      .number({ error: 'Choose a day from the list.' })
      .int('Choose a day from the list.')
      .min(1, 'Choose a day from the list.')
      .max(LAST_DIGEST_DAY, 'Choose a day from the list.')
      .optional(),
  }),
])

/** '1st', '2nd', '3rd', '4th' … '28th'. */
function ordinal(day: number): string {
  const suffix =
    day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'
  return `${day}${suffix}`
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'subscribers')
  const page = askedListPage(queryParams.read(request).page)
  const { timeZone } = await siteSettingsFor(context)
  const [list, digest, schedule] = await Promise.all([
    listSubscribersForAdmin({ page }),
    batchProgress(digestBatchId(new Date(), timeZone)),
    getDigestSchedule(),
  ])
  const pageCount = listPageCount(request, page, list.total)
  return {
    digest,
    schedule: { day: schedule.day, next: schedule.next ? formatPlainDate(schedule.next, 'date') : null },
    canSendEmail: canSendEmail(),
    publicUrlSet: Boolean(env.PUBLIC_URL),
    counts: list.counts,
    pendingFull: list.counts.pending >= pendingSubscribersMax(),
    page,
    pageCount,
    subscribers: list.subscribers.map((s) => ({
      id: s.id,
      email: s.email,
      firstName: s.firstName,
      topics: s.topics.join(', '),
      state: s.state,
      stateLabel: SUBSCRIBER_STATE_LABELS[s.state],
      since: formatDate(s.confirmedAt ?? s.createdAt, timeZone, 'date'),
      unsubscribedAt: s.unsubscribedAt ? formatDate(s.unsubscribedAt, timeZone, 'date') : null,
    })),
  }
}

function refusal(message: string, status = 400) {
  return data({ errors: [message] }, { status })
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireAccess({ request, context }, 'subscribers')
  const submission = await parseFormSubmission(request, PageSchema)
  if (submission.status !== 'success') {
    const errors = Object.values(submission.error ?? {})
      .flat()
      .filter((e): e is string => typeof e === 'string')
    return data({ errors: errors.length > 0 ? errors : ['Please check the form.'] }, { status: 400 })
  }
  const form = submission.value
  const by = auditSourceOf(me, context)
  const origin = getSiteOrigin(request, context)
  try {
    if (form.intent === 'add') {
      const outcome = await inviteSubscriber(form, origin)
      if (outcome === 'already-listed') return refusal(NEWSLETTER_MESSAGES.alreadyListed, 409)
      await recordAuditEvent({
        by,
        action: 'subscriber.invited',
        target: { type: 'subscriber', id: null, label: 'a subscriber' },
      })
      return redirectWithToast('/admin/subscribers', NEWSLETTER_MESSAGES.invited)
    }
    if (form.intent === 'import') {
      const text = await readCsvFile(form.file)
      if (text === null) return refusal(NEWSLETTER_MESSAGES.importNotUtf8)
      const { people, problems } = readSubscriberImport(text)
      if (problems.length > 0) return data({ errors: problems.slice(0, 20) }, { status: 400 })
      const { invited, skipped } = await importSubscribers(people, origin)
      await recordAuditEvent({ by, action: 'subscribers.imported', detail: { invited, skipped } })
      return redirectWithToast(
        '/admin/subscribers',
        `Imported: ${invited} invited to confirm${skipped > 0 ? `, ${skipped} already on the list left as they were` : ''}.`,
      )
    }
    if (form.intent === 'digest') {
      const sent = await sendEventsDigest(origin)
      if (!sent) return refusal('No events are coming up, so there is nothing to send.', 409)
      await recordAuditEvent({ by, action: 'digest.sent', detail: { queued: sent.queued } })
      return redirectWithToast(
        '/admin/subscribers',
        sent.queued > 0
          ? `The events digest is on its way to ${sent.queued} ${sent.queued === 1 ? 'subscriber' : 'subscribers'}.`
          : "Every subscriber of Events has this month's digest already.",
      )
    }
    if (form.intent === 'digest-schedule') {
      const day = form.day ?? null
      const previousDay = await setDigestDay(day)
      await recordAuditEvent({ by, action: 'digest.scheduled', detail: { day, previousDay } })
      return redirectWithToast(
        '/admin/subscribers',
        day === null
          ? 'The events digest now goes out only when you press the button.'
          : `The events digest now goes out by itself on the ${ordinal(day)} of each month.`,
      )
    }
    const deleted = await deleteSubscriber(form.id)
    if (!deleted) return refusal('That person is no longer on the list.', 404)
    // The audit log keeps no address of a person deleted for good.
    await recordAuditEvent({
      by,
      action: 'subscriber.deleted',
      target: { type: 'subscriber', id: form.id, label: 'a subscriber' },
    })
    return redirectWithToast('/admin/subscribers', NEWSLETTER_MESSAGES.deleted)
  } catch (error) {
    if (error instanceof SubscriberRuleError || error instanceof OutgoingMailQuotaError) return refusal(error.message, 409)
    throw error
  }
}

export default function Subscribers({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, subscribers, page, pageCount } = loaderData
  const adding = useIsSubmitting('add')
  const importing = useIsSubmitting('import')
  const digesting = useIsSubmitting('digest')
  const scheduling = useIsSubmitting('digest-schedule')
  const { digest, schedule } = loaderData
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Subscribers</h1>
        <p>
          {counts.confirmed} subscribed, {counts.pending} invited to confirm, {counts.unsubscribed} unsubscribed
        </p>
        <a href="/admin/subscribers/export.csv" className="button-secondary button-small" download>
          Export CSV
        </a>
      </div>
      {loaderData.canSendEmail ? null : <p className="admin-notice admin-notice-warning">{NEWSLETTER_MESSAGES.noSmtp}</p>}
      {loaderData.publicUrlSet ? null : <p className="admin-notice admin-notice-warning">{NEWSLETTER_MESSAGES.noPublicUrl}</p>}
      {loaderData.pendingFull ? (
        <p className="admin-notice admin-notice-warning">{NEWSLETTER_MESSAGES.pendingFull(counts.pending)}</p>
      ) : null}
      <ErrorList errors={actionData?.errors} variant="form" />
      <section className="card stack" aria-labelledby="events-digest">
        <h2 id="events-digest">Events digest</h2>
        <p className="field-hint">
          The coming events, e-mailed to the subscribers of Events. Once a month: pressing it again this month reaches only those
          who have not had it.
        </p>
        {digest.sent + digest.waiting + digest.failed > 0 ? (
          <p role="status">{`This month: ${digest.sent} sent, ${digest.waiting} waiting, ${digest.failed} failed.`}</p>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="digest" />
          <button type="submit" className="button" disabled={digesting}>
            {digesting ? 'Sending...' : 'E-mail the upcoming events now'}
          </button>
        </Form>
        <Form method="post" className="form digest-schedule">
          <input type="hidden" name="intent" value="digest-schedule" />
          <div className="field">
            <label className="field-label" htmlFor="digest-day">
              Send it by itself
            </label>
            <select
              id="digest-day"
              name="day"
              defaultValue={schedule.day ?? ''}
              className="field-input"
              aria-describedby="digest-day-hint"
            >
              <option value="">Never: only with the button</option>
              {Array.from({ length: LAST_DIGEST_DAY }, (_, i) => i + 1).map((day) => (
                <option key={day} value={day}>
                  {`On the ${ordinal(day)} of each month`}
                </option>
              ))}
            </select>
            <p id="digest-day-hint" className="field-hint">
              {schedule.next
                ? `Next: ${schedule.next}, in the site's time zone.`
                : 'Nothing goes out unless you press the button above.'}
            </p>
          </div>
          <button type="submit" className="button-secondary" disabled={scheduling}>
            {scheduling ? 'Saving...' : 'Save'}
          </button>
        </Form>
      </section>
      <div className="admin-two-columns">
        <section className="card stack" aria-labelledby="add-subscriber">
          <h2 id="add-subscriber">Add someone</h2>
          <p className="field-hint">They get an e-mail with a link to confirm; nothing else is sent until they do.</p>
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="add" />
            <div className="field">
              <label className="field-label" htmlFor="add-email">
                E-mail
              </label>
              <input id="add-email" name="email" type="email" required maxLength={254} className="field-input" />
            </div>
            <div className="field">
              <label className="field-label" htmlFor="add-first-name">
                First name (optional)
              </label>
              <input id="add-first-name" name="firstName" maxLength={60} className="field-input" />
            </div>
            <fieldset className="field">
              <legend className="field-label">Topics</legend>
              {TOPICS.map((topic) => (
                <div key={topic} className="field-checkbox">
                  <input
                    type="checkbox"
                    id={`add-topic-${topic}`}
                    name="topics"
                    value={topic}
                    defaultChecked={topic !== 'marketplace'}
                  />
                  <label htmlFor={`add-topic-${topic}`}>{TOPIC_LABELS[topic]}</label>
                </div>
              ))}
            </fieldset>
            <div>
              <button type="submit" className="button" disabled={adding}>
                {adding ? 'Inviting...' : 'Invite to confirm'}
              </button>
            </div>
          </Form>
        </section>
        <section className="card stack" aria-labelledby="import-subscribers">
          <h2 id="import-subscribers">Import a list</h2>
          <p className="field-hint">
            A CSV file with one person a row: e-mail, first name (optional), topics (optional: news, events, marketplace,
            separated by spaces). At most {IMPORT_MAX_ROWS} rows. Each one is invited to confirm; people on the list already are
            left as they are.
          </p>
          <Form method="post" encType="multipart/form-data" className="form">
            <input type="hidden" name="intent" value="import" />
            <div className="field">
              <label className="field-label" htmlFor="import-file">
                CSV file
              </label>
              <input id="import-file" name="file" type="file" accept=".csv,text/csv" required className="field-input" />
            </div>
            <div>
              <button type="submit" className="button" disabled={importing}>
                {importing ? 'Importing...' : 'Import and invite'}
              </button>
            </div>
          </Form>
        </section>
      </div>
      {subscribers.length === 0 ? (
        <p className="card">
          Nobody has signed up yet. The sign-up form is on the home, news and calendar pages and in the footer.
        </p>
      ) : (
        <AdminTable caption="Subscribers, newest first" columns={['Person', 'Topics', 'State', 'Since']} actions>
          {subscribers.map((s) => (
            <tr key={s.id}>
              <td data-label="Person">
                {s.email}
                {s.firstName ? <div className="muted">{s.firstName}</div> : null}
              </td>
              <td data-label="Topics">{s.topics}</td>
              <td data-label="State">
                <AdminBadge>{s.stateLabel}</AdminBadge>
                {s.unsubscribedAt ? <div className="muted">on {s.unsubscribedAt}</div> : null}
              </td>
              <td data-label="Since">{s.since}</td>
              <td>
                <ConfirmButton
                  hiddenFields={{ intent: 'delete', id: s.id }}
                  label="Delete"
                  title={`Delete ${s.email}`}
                  confirmText={`Delete ${s.email} for good, with every e-mail to them? This cannot be undone.`}
                  confirmLabel="Delete for good"
                />
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <Pagination
        page={page}
        pageCount={pageCount}
        label="Pages of subscribers"
        hrefOf={(p) => `?page=${p}`}
        newerLabel="Newer"
        olderLabel="Older"
        className="button-row"
        linkClassName="button-secondary button-small"
      />
    </div>
  )
}
