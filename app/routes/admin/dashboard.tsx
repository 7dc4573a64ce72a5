import { Link } from 'react-router'
import type { Route } from './+types/dashboard'
import { adminNav } from './admin-nav'
import { requireRole } from '~/platform/auth.server'

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Site admin' }]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireRole(request, 'admin')
  return { name: user.name }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const sections = adminNav.filter((item) => item.to !== '/admin')
  return (
    <div className="stack">
      <h1>Dashboard</h1>
      <p className="lead">Welcome, {loaderData.name}. What would you like to manage?</p>
      <ul className="card-grid">
        {sections.map((item) => (
          <li key={item.to} className="card admin-card">
            <h2>
              <Link to={item.to}>{item.label}</Link>
            </h2>
            {item.description ? <p className="muted">{item.description}</p> : null}
          </li>
        ))}
      </ul>
    </div>
  )
}
