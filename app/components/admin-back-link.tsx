import { Link } from '~/components/link'

/** "All articles" and the like above an admin edit page: back to its section's list, a full tap target. */
export function AdminBackLink({ to, children }: { to: string; children: string }) {
  return (
    <p>
      <Link to={to} className="admin-back-link">
        {children}
      </Link>
    </p>
  )
}
