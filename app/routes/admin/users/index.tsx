import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/index'
import { AdminBadge, AdminTable } from '~/components/admin-table'
import { ConfirmButton } from '~/components/confirm-button'
import { ErrorList } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { listPendingInvitations, withdrawInvitation } from '~/modules/users/invitations.server'
import { TwoStepRolesSchema } from '~/modules/users/two-step.schema'
import { getRolesRequiringTwoStep, setRolesRequiringTwoStep } from '~/modules/users/two-step.server'
import { listUsersForAdmin } from '~/modules/users/users.queries.server'
import { INVITATION_MESSAGES, ROLE_LABELS, ROLE_OPTIONS, WithdrawInvitationSchema } from '~/modules/users/users.schema'
import { requireAccess } from '~/platform/auth.server'
import { formatDate } from '~/platform/dates'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Users | Site admin' }]

// The page's two forms: a withdraw button per invitation, and the roles that need two-step sign-in.
const UsersPageSchema = z.union([
  WithdrawInvitationSchema,
  TwoStepRolesSchema.extend({ intent: z.literal('two-step-roles').optional() }),
])

export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireAccess({ request, context }, 'users')
  const [users, invitations, twoStepRoles, { timeZone }] = await Promise.all([
    listUsersForAdmin(),
    listPendingInvitations(),
    getRolesRequiringTwoStep(),
    siteSettingsFor(context),
  ])
  return {
    users,
    myId: me.id,
    twoStepRoles,
    invitations: invitations.map((invitation) => ({
      ...invitation,
      role: ROLE_LABELS[invitation.role],
      until: formatDate(invitation.expiresAt, timeZone, 'dateTime'),
    })),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireAccess({ request, context }, 'users')
  const submission = await parseFormSubmission(request, UsersPageSchema)
  if (submission.status !== 'success') {
    const errors = Object.values(submission.error ?? {})
      .flat()
      .filter((e): e is string => typeof e === 'string')
    return data({ errors: errors.length > 0 ? errors : [INVITATION_MESSAGES.gone] }, { status: 400 })
  }
  const form = submission.value
  if (form.intent === 'withdraw') {
    const email = await withdrawInvitation(form.id)
    if (!email) return data({ errors: [INVITATION_MESSAGES.gone] }, { status: 404 })
    await recordAuditEvent({
      by: auditSourceOf(me, context),
      action: 'user.invitation-withdrawn',
      target: { type: 'user', id: null, label: email },
    })
    return redirectWithToast('/admin/users', INVITATION_MESSAGES.withdrawn(email))
  }
  const signedOut = await setRolesRequiringTwoStep(form.roles)
  await recordAuditEvent({
    by: auditSourceOf(me, context),
    action: 'settings.two-step-roles-changed',
    detail: { roles: form.roles.join(', ') || 'none', signedOut: signedOut.length },
  })
  if (signedOut.includes(me.id)) return redirectWithToast('/login', 'Saved. Sign in again to set up two-step sign-in.')
  return redirectWithToast(
    '/admin/users',
    signedOut.length > 0
      ? `Saved. ${signedOut.length} ${signedOut.length === 1 ? 'person' : 'people'} without two-step sign-in ${signedOut.length === 1 ? 'was' : 'were'} signed out, to set it up at their next sign-in.`
      : 'Saved. People of these roles set up two-step sign-in at their next sign-in.',
  )
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const saving = useIsSubmitting('two-step-roles')
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
      <section className="card admin-section" aria-labelledby="two-step-roles-heading">
        <h2 id="two-step-roles-heading">Two-step sign-in</h2>
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="two-step-roles" />
          <ErrorList errors={actionData?.errors} variant="form" />
          <fieldset className="field two-step-roles">
            <legend>Require it for</legend>
            <p className="field-hint">
              Besides the password, a code from an app on the phone. Whoever has not set it up yet is led to do so at their next
              sign-in.
            </p>
            {ROLE_OPTIONS.map((role) => (
              <div key={role.value} className="field-checkbox">
                <input
                  type="checkbox"
                  id={`two-step-${role.value}`}
                  name="roles"
                  value={role.value}
                  defaultChecked={loaderData.twoStepRoles.includes(role.value)}
                />
                <label htmlFor={`two-step-${role.value}`}>{role.label}s</label>
              </div>
            ))}
          </fieldset>
          <div className="button-row">
            <button type="submit" className="button" disabled={saving}>
              {saving ? 'Saving...' : 'Save'}
            </button>
          </div>
        </Form>
      </section>
    </div>
  )
}
