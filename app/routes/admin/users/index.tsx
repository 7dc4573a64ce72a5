import { data, Form, Link } from 'react-router'
import type { Route } from './+types/index'
import { AdminTable } from '~/components/admin-table'
import { ErrorList } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { TwoStepRolesSchema } from '~/modules/users/two-step.schema'
import { getRolesRequiringTwoStep, setRolesRequiringTwoStep } from '~/modules/users/two-step.server'
import { listUsersForAdmin } from '~/modules/users/users.queries.server'
import { ROLE_LABELS, ROLE_OPTIONS } from '~/modules/users/users.schema'
import { requireAccess } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Users | Site admin' }]

export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireAccess(request, 'users')
  const [users, twoStepRoles] = await Promise.all([listUsersForAdmin(), getRolesRequiringTwoStep()])
  return { users, myId: me.id, twoStepRoles }
}

/** Which roles must sign in in two steps: each person of such a role sets it up at their next sign-in. */
export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireAccess(request, 'users')
  const submission = await parseFormSubmission(request, TwoStepRolesSchema)
  if (submission.status !== 'success')
    return data(
      {
        errors: Object.values(submission.error ?? {})
          .flat()
          .filter((e): e is string => typeof e === 'string'),
      },
      { status: 400 },
    )
  await setRolesRequiringTwoStep(submission.value.roles)
  await recordAuditEvent({
    by: auditSourceOf(me, context),
    action: 'settings.two-step-roles-changed',
    detail: { roles: submission.value.roles.join(', ') || 'none' },
  })
  return redirectWithToast('/admin/users', 'Saved. People of these roles set up two-step sign-in at their next sign-in.')
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const saving = useIsSubmitting()
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Users</h1>
        <Link to="/admin/users/new" className="button">
          Add user
        </Link>
      </div>
      <AdminTable caption="People who can sign in" columns={['Name', 'E-mail', 'Role']} actions>
        {loaderData.users.map((user) => (
          <tr key={user.id}>
            <td data-label="Name">
              {user.name}
              {user.id === loaderData.myId ? <span className="admin-badge">you</span> : null}
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
      <section className="card admin-section" aria-labelledby="two-step-roles-heading">
        <h2 id="two-step-roles-heading">Two-step sign-in</h2>
        <Form method="post" className="form">
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
