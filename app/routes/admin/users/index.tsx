import { data, Link } from 'react-router'
import type { Route } from './+types/index'
import { AdminBadge, AdminTable } from '~/components/admin-table'
import { ConfirmButton } from '~/components/confirm-button'
import { ErrorList } from '~/components/forms'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { listPendingInvitations, withdrawInvitation } from '~/modules/users/invitations.server'
import { listUsersForAdmin } from '~/modules/users/users.queries.server'
import { INVITATION_MESSAGES, ROLE_LABELS, WithdrawInvitationSchema } from '~/modules/users/users.schema'
import { requireAccess } from '~/platform/auth.server'
import { formatDate } from '~/platform/dates'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Users | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireAccess(request, 'users')
  const [users, invitations, { timeZone }] = await Promise.all([
    listUsersForAdmin(),
    listPendingInvitations(),
    siteSettingsFor(context),
  ])
  return {
    users,
    myId: me.id,
    invitations: invitations.map((invitation) => ({
      ...invitation,
      role: ROLE_LABELS[invitation.role],
      until: formatDate(invitation.expiresAt, timeZone, 'dateTime'),
    })),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireAccess(request, 'users')
  const submission = await parseFormSubmission(request, WithdrawInvitationSchema)
  if (submission.status !== 'success') return data({ errors: [INVITATION_MESSAGES.gone] }, { status: 400 })
  const email = await withdrawInvitation(submission.value.id)
  if (!email) return data({ errors: [INVITATION_MESSAGES.gone] }, { status: 404 })
  await recordAuditEvent({
    by: auditSourceOf(me, context),
    action: 'user.invitation-withdrawn',
    target: { type: 'user', id: null, label: email },
  })
  return redirectWithToast('/admin/users', INVITATION_MESSAGES.withdrawn(email))
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Users</h1>
        <div className="button-row">
          <Link to="/admin/users/invite" className="button">
            Invite someone
          </Link>
          <Link to="/admin/users/new" className="button-secondary">
            Add user
          </Link>
        </div>
      </div>
      <AdminTable caption="People who can sign in" columns={['Name', 'E-mail', 'Role']} actions>
        {loaderData.users.map((user) => (
          <tr key={user.id}>
            <td data-label="Name">
              {user.name}
              {user.id === loaderData.myId ? <AdminBadge>you</AdminBadge> : null}
            </td>
            <td data-label="E-mail">{user.email}</td>
            <td data-label="Role">{ROLE_LABELS[user.role]}</td>
            <td>
              <Link to={`/admin/users/${user.id}`} aria-label={`Manage ${user.name}`}>
                Manage
              </Link>
            </td>
          </tr>
        ))}
      </AdminTable>
      {loaderData.invitations.length > 0 || actionData ? (
        <section className="stack" aria-labelledby="invitations-heading">
          <h2 id="invitations-heading">Invitations waiting</h2>
          <ErrorList errors={actionData?.errors} variant="form" />
          <AdminTable caption="Invitations not used yet" columns={['E-mail', 'Role', 'Invited by', 'Link works until']} actions>
            {loaderData.invitations.map((invitation) => (
              <tr key={invitation.id}>
                <td data-label="E-mail">{invitation.email}</td>
                <td data-label="Role">{invitation.role}</td>
                <td data-label="Invited by">{invitation.invitedBy ?? '-'}</td>
                <td data-label="Link works until">{invitation.until}</td>
                <td>
                  <ConfirmButton
                    hiddenFields={{ intent: 'withdraw', id: invitation.id }}
                    label="Withdraw"
                    confirmText={`Withdraw the invitation to ${invitation.email}? Its link stops working at once.`}
                    confirmLabel="Withdraw"
                  />
                </td>
              </tr>
            ))}
          </AdminTable>
        </section>
      ) : null}
    </div>
  )
}
