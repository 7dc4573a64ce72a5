import { data, Form } from 'react-router'
import { BackLink } from '~/components/back-link'
import { z } from 'zod'
import type { Route } from './+types/$id'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { AdminTable } from '~/components/admin-table'
import { ConfirmButton } from '~/components/confirm-button'
import { telHref } from '~/components/contact-links'
import { CONTACT_SUBJECT_LABELS, type ContactSubject } from '~/modules/inbox/contact.schema'
import { describeDelivery } from '~/modules/inbox/inbox.format'
import { formatDate } from '~/platform/dates'
import { getContactMessageForAdmin } from '~/modules/inbox/inbox.queries.server'
import {
  deleteContactMessage,
  markContactMessageRead,
  retryFailedDeliveries,
  setContactMessageHandled,
} from '~/modules/inbox/inbox.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { redirectWithToast } from '~/platform/toast.server'
import inboxStylesUrl from '~/styles/inbox.css?url'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: inboxStylesUrl }]

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? `Message from ${loaderData.message.name}` : 'Message'} | Site admin` },
]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'messages')
  const [message, { timeZone }] = await Promise.all([getContactMessageForAdmin(params.id), siteSettingsFor(context)])
  if (!message) throw data('This message does not exist (it may have been deleted).', { status: 404 })
  // Opening a message is reading it.
  if (message.readAt === null) await markContactMessageRead(message.id)
  return {
    message: {
      id: message.id,
      name: message.name,
      email: message.email,
      phone: message.phone,
      subject: CONTACT_SUBJECT_LABELS[message.subject as ContactSubject] ?? message.subject,
      text: message.message,
      receivedAt: formatDate(message.createdAt, timeZone, 'dateTime'),
      handledAt: message.handledAt ? formatDate(message.handledAt, timeZone, 'dateTime') : null,
    },
    deliveries: message.deliveries.map((d) => ({ ...describeDelivery(d, timeZone), retryable: d.status === 'failed' })),
  }
}

const MessageActionSchema = z.object({
  intent: z.enum(['mark-handled', 'mark-unhandled', 'retry-delivery', 'delete']),
})

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'messages')
  const submission = await parseFormSubmission(request, MessageActionSchema)
  if (submission.status !== 'success') throw data('Unknown action.', { status: 400 })
  const here = `/admin/messages/${params.id}`
  const missing = () => redirectWithToast('/admin/messages', 'That message no longer exists.', 'error')
  // Read before the change, so that the audit log can name a deleted message.
  const message = await getContactMessageForAdmin(params.id)
  if (!message) return missing()
  const record = (action: 'message.handled' | 'message.unhandled' | 'message.resent' | 'message.deleted') =>
    recordAuditEvent({
      by: auditSourceOf(user, context),
      action,
      target: {
        type: 'message',
        id: message.id,
        label: `From ${message.name}: ${CONTACT_SUBJECT_LABELS[message.subject as ContactSubject] ?? message.subject}`,
      },
    })
  switch (submission.value.intent) {
    case 'mark-handled':
    case 'mark-unhandled': {
      const handled = submission.value.intent === 'mark-handled'
      if (!(await setContactMessageHandled(params.id, handled))) return missing()
      await record(handled ? 'message.handled' : 'message.unhandled')
      return redirectWithToast(here, handled ? 'Message marked as handled' : 'Message marked as not handled')
    }
    case 'retry-delivery': {
      const queued = await retryFailedDeliveries(params.id)
      if (queued > 0) await record('message.resent')
      return redirectWithToast(here, queued > 0 ? 'Sending again' : 'Nothing to send again', queued > 0 ? 'success' : 'info')
    }
    case 'delete':
      if (!(await deleteContactMessage(params.id))) return missing()
      await record('message.deleted')
      return redirectWithToast('/admin/messages', 'Message deleted')
  }
}

export default function MessageDetail({ loaderData }: Route.ComponentProps) {
  const { message, deliveries } = loaderData
  const replySubject = `Re: ${message.subject}`
  return (
    <div className="stack">
      <BackLink to="/admin/messages">All messages</BackLink>
      <div className="admin-page-header">
        <h1>Message from {message.name}</h1>
        {message.handledAt ? <span className="admin-badge inbox-badge-handled">Handled</span> : null}
      </div>

      <dl className="card inbox-facts">
        <div>
          <dt>From</dt>
          <dd>{message.name}</dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${message.email}?subject=${encodeURIComponent(replySubject)}`}>{message.email}</a>
          </dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>{message.phone ? <a href={telHref(message.phone)}>{message.phone}</a> : 'Not given'}</dd>
        </div>
        <div>
          <dt>Subject</dt>
          <dd>{message.subject}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>{message.receivedAt}</dd>
        </div>
        {message.handledAt ? (
          <div>
            <dt>Handled</dt>
            <dd>{message.handledAt}</dd>
          </div>
        ) : null}
      </dl>

      <section aria-labelledby="message-text-heading">
        <h2 id="message-text-heading">Message</h2>
        <div className="card inbox-text">{message.text}</div>
      </section>

      <div className="button-row">
        <a className="button" href={`mailto:${message.email}?subject=${encodeURIComponent(replySubject)}`}>
          Reply by e-mail
        </a>
        <Form method="post">
          <input type="hidden" name="intent" value={message.handledAt ? 'mark-unhandled' : 'mark-handled'} />
          <button type="submit" className="button-secondary">
            {message.handledAt ? 'Mark as not handled' : 'Mark as handled'}
          </button>
        </Form>
        <ConfirmButton
          hiddenFields={{ intent: 'delete' }}
          label="Delete message"
          confirmText="Are you sure you want to delete this message?"
          confirmLabel="Delete"
        />
      </div>

      <section aria-labelledby="delivery-heading" className="admin-section">
        <h2 id="delivery-heading">Delivery</h2>
        {deliveries.length === 0 ? (
          <p className="muted">
            Kept in this inbox only: when it arrived, the site was not set up to send messages by e-mail or to a form service.
          </p>
        ) : (
          <>
            <AdminTable caption="Where this message was sent" columns={['Channel', 'Status', 'Details']}>
              {deliveries.map((d) => (
                <tr key={d.channel}>
                  <td data-label="Channel">{d.channel}</td>
                  <td data-label="Status" className={`inbox-delivery-${d.tone}`}>
                    {d.summary}
                  </td>
                  <td data-label="Details">{d.detail ?? ''}</td>
                </tr>
              ))}
            </AdminTable>
            {deliveries.some((d) => d.retryable) ? (
              <Form method="post">
                <input type="hidden" name="intent" value="retry-delivery" />
                <button type="submit" className="button-secondary button-small">
                  Try sending again now
                </button>
              </Form>
            ) : null}
          </>
        )}
      </section>
    </div>
  )
}
