import { Link, redirect } from 'react-router'
import type { Route } from './+types/dashboard'
import { canManage, homeFor, sectionsFor } from '~/platform/access'
import { requireUser } from '~/platform/auth.server'

export const meta: Route.MetaFunction = () => [{ title: 'Dashboard | Site admin' }]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  // `/admin` is the admin area's front door (bookmarks, typed addresses): whoever may not see the
  // dashboard is sent on to their own first page instead of being refused at the door.
  if (!canManage(user, 'dashboard')) throw redirect(homeFor(user))
  const cards = sectionsFor(user)
    .filter((section) => section.name !== 'dashboard')
    .map(({ path, label, description }) => ({ path, label, description }))
  return { name: user.name, cards }
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="stack">
      <h1>Dashboard</h1>
      <p className="lead">Welcome, {loaderData.name}. What would you like to manage?</p>
      <ul className="card-grid">
        {loaderData.cards.map((card) => (
          <li key={card.path} className="card admin-card">
            <h2>
              <Link to={card.path}>{card.label}</Link>
            </h2>
            {card.description ? <p className="muted">{card.description}</p> : null}
          </li>
        ))}
      </ul>
    </div>
  )
}
