import { Link } from 'react-router'
import { ADMIN_SECTIONS, canManage, homeFor, type SectionName } from '~/platform/access'
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
 * The small lock button at the bottom right of a public page whose content is managed in an admin
 * section. Someone who may manage the section goes to its admin page; anyone else signed in goes to
 * their own first admin page (never to sign-in again, which would send them straight back); a
 * visitor goes to the sign-in page and comes back here afterwards.
 */
export function AdminEntryLink({ section, returnTo }: { section: SectionName; returnTo: string }) {
  const { user } = useRootData()
  const { path, label } = ADMIN_SECTIONS[section]
  const [to, name] = !user
    ? [`/login?${new URLSearchParams({ redirectTo: returnTo })}`, 'Admin sign in']
    : canManage(user, section)
      ? [path, `Manage ${label.toLowerCase()}`]
      : [homeFor(user), 'Your admin pages']
  return (
    <Link to={to} className="admin-entry" aria-label={name} title={name}>
      <LockIcon />
    </Link>
  )
}
