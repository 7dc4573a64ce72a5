import { Link } from 'react-router'
import { useRootData } from './root-data'

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5Zm-3 8V7a3 3 0 1 1 6 0v3H9Zm3 4a2 2 0 0 1 1 3.7V19h-2v-1.3a2 2 0 0 1 1-3.7Z"
      />
    </svg>
  )
}

/**
 * The small lock button at the bottom right of news, gallery and calendar: visitors go to the
 * sign-in page (and come back here), a signed-in administrator goes to the page's admin screen.
 */
export function AdminEntryLink({
  returnTo,
  adminPath,
  adminLabel,
}: {
  returnTo: string
  adminPath: string
  adminLabel: string
}) {
  const { user } = useRootData()
  const admin = user?.role === 'admin'
  return (
    <Link
      to={admin ? adminPath : `/login?${new URLSearchParams({ redirectTo: returnTo })}`}
      className="admin-entry"
      aria-label={admin ? adminLabel : 'Admin sign in'}
      title={admin ? adminLabel : 'Admin sign in'}
    >
      <LockIcon />
    </Link>
  )
}
