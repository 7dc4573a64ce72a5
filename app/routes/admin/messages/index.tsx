import { Link } from 'react-router'
import { adminListTitle } from '~/components/admin-list-pagination'
import type { Route } from './+types/index'
import { AdminBadge, AdminTable } from '~/components/admin-table'
import { Pagination } from '~/components/pagination'
import { CONTACT_SUBJECT_LABELS, type ContactSubject } from '~/modules/inbox/contact.schema'
import { describeDelivery, describeNewMessageNotice } from '~/modules/inbox/inbox.format'
import { formatDate } from '~/platform/dates'
import { countUnreadContactMessages, listContactMessagesForAdmin } from '~/modules/inbox/inbox.queries.server'
import { configuredChannels } from '~/modules/inbox/inbox.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import inboxStylesUrl from '~/styles/inbox.css?url'
import { askedListPage, listPageCount } from '~/platform/admin-list-page.server'
import { declareQueryParams } from '~/platform/query-params'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: inboxStylesUrl }]

export const meta: Route.MetaFunction = ({ data }) => [{ title: adminListTitle('Messages', data) }]

export const queryParams = declareQueryParams('page')

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'messages')
  const page = askedListPage(queryParams.read(request).page)
  const [{ messages, total }, unread, { timeZone, email }] = await Promise.all([
    listContactMessagesForAdmin({ page }),
    countUnreadContactMessages(),
    siteSettingsFor(context),
  ])
  const pageCount = listPageCount(request, page, total)
  return {
    notice: describeNewMessageNotice(configuredChannels(), email),
    unread,
    total,
    page,
    pageCount,
    messages: messages.map((message) => ({
      id: message.id,
      name: message.name,
      email: message.email,
      subject: CONTACT_SUBJECT_LABELS[message.subject as ContactSubject] ?? message.subject,
      preview: message.preview,
      receivedAt: formatDate(message.createdAt, timeZone, 'dateTime'),
      unread: message.readAt === null,
      handled: message.handledAt !== null,
      deliveries: message.deliveries.map((d) => describeDelivery(d, timeZone)),
    })),
  }
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { messages, notice, unread, total, page, pageCount } = loaderData
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Messages</h1>
        <p className="inbox-count">
          {unread === 0 ? 'No unread messages' : `${unread} unread ${unread === 1 ? 'message' : 'messages'}`}
          {total > 0 ? ` of ${total}` : ''}
        </p>
      </div>
      <p className={notice.notified ? 'admin-notice' : 'admin-notice admin-notice-warning'}>{notice.text}</p>
      {messages.length === 0 ? (
        <p className="card">No messages yet. Messages sent through the contact form appear here.</p>
      ) : (
        <AdminTable
          caption="Messages from the contact form, newest first"
          columns={['From', 'Message', 'Received', 'Status', 'Delivery']}
          className="inbox-table"
        >
          {messages.map((message) => (
            <tr key={message.id} className={message.unread ? 'inbox-unread' : undefined}>
              <td data-label="From">
                <Link to={`/admin/messages/${message.id}`}>{message.name}</Link>
                <div className="muted inbox-email">{message.email}</div>
              </td>
              <td data-label="Message">
                <strong>{message.subject}</strong>
                <div className="inbox-preview">{message.preview}</div>
              </td>
              <td data-label="Received">{message.receivedAt}</td>
              <td data-label="Status">
                <MessageStatus unread={message.unread} handled={message.handled} />
              </td>
              <td data-label="Delivery">
                <DeliverySummary deliveries={message.deliveries} />
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <Pagination
        page={page}
        pageCount={pageCount}
        label="Pages of messages"
        hrefOf={(p) => `?page=${p}`}
        newerLabel="Newer messages"
        olderLabel="Older messages"
        className="button-row"
        linkClassName="button-secondary button-small"
      />
    </div>
  )
}

function MessageStatus({ unread, handled }: { unread: boolean; handled: boolean }) {
  return (
    <span className="inbox-badges">
      {unread ? <AdminBadge className="inbox-badge-unread">Unread</AdminBadge> : null}
      {handled ? <AdminBadge className="inbox-badge-handled">Handled</AdminBadge> : null}
      {!unread && !handled ? <span className="muted">Read</span> : null}
    </span>
  )
}

function DeliverySummary({ deliveries }: { deliveries: ReturnType<typeof describeDelivery>[] }) {
  if (deliveries.length === 0) return <span className="muted">Inbox only</span>
  return (
    <ul className="inbox-deliveries">
      {deliveries.map((d) => (
        <li key={d.channel} className={`inbox-delivery-${d.tone}`}>
          {d.channel}: {d.summary}
        </li>
      ))}
    </ul>
  )
}
