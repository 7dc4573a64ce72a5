import { Link } from 'react-router'

/** "All articles", "← Calendar" and the like above a page: back to its list, a full tap target. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <p>
      <Link to={to} className="back-link">
        {children}
      </Link>
    </p>
  )
}
