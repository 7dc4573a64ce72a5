import { Link } from 'react-router'
import type { Route } from './+types/index'
import { AdminBadge, AdminTable } from '~/components/admin-table'
import { listUsersForAdmin } from '~/modules/users/users.queries.server'
import { ROLE_LABELS } from '~/modules/users/users.schema'
import { requireAccess } from '~/platform/auth.server'

export const meta: Route.MetaFunction = () => [{ title: 'Users | Site admin' }]

export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireAccess(request, 'users')
  return { users: await listUsersForAdmin(), myId: me.id }
}

export default function Users({ loaderData }: Route.ComponentProps) {
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
    </div>
  )
}
