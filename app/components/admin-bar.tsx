import { useMatches, Link } from 'react-router'
import { ADMIN_SECTIONS, canManage, homeFor, type SectionName } from '~/platform/access'
import { useRootData } from './root-data'
import { SignOutForm } from './sign-out-form'

/** Where "Edit this page" leads from a public page: an admin page and the section it belongs to. */
export interface EditTarget {
  section: SectionName
  path: string
}

/**
 * A public route's `handle`: which admin page edits what the route shows, from its loader data
 * (undefined while an error is shown). The deepest route with one wins (an article over the list).
 */
export interface PublicRouteHandle<Data = unknown> {
  editTarget: (data: Data | undefined) => EditTarget | null
}

/** Typed helper for a route's `export const handle = editHandle<...>(...)`. */
export function editHandle<Data>(editTarget: (data: Data) => EditTarget | null): PublicRouteHandle {
  return { editTarget: (data) => (data === undefined ? null : editTarget(data as Data)) }
}

/** An editable page text: the pages admin opens the page's form with ?page=. */
export function pageTextsTarget(key: string): EditTarget {
  return { section: 'pages', path: `${ADMIN_SECTIONS.pages.path}?page=${encodeURIComponent(key)}` }
}

function useEditTarget(): EditTarget | null {
  const matches = useMatches()
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as Partial<PublicRouteHandle> | undefined
    if (typeof handle?.editTarget !== 'function') continue
    const target = handle.editTarget(matches[i].loaderData)
    if (target) return target
  }
  return null
}

/**
 * A slim bar above the public pages for a signed-in user: their admin home, "Edit this page" when
 * they may manage what the page shows, and Sign out. Only ever rendered for a signed-in user, whose
 * pages are private and never cached (private-responses.server.ts); anonymous HTML has none of it.
 */
export function AdminBar() {
  const { user } = useRootData()
  const target = useEditTarget()
  if (!user) return null
  const editable = target && canManage(user, target.section) ? target : null
  const home = homeFor(user)
  return (
    <div className="admin-bar" data-admin-bar="">
      <nav aria-label="Admin" className="container admin-bar-inner">
        <ul className="admin-bar-list">
          <li>
            <Link to={home} className="admin-bar-link">
              {home === ADMIN_SECTIONS.dashboard.path ? 'Dashboard' : 'Admin'}
            </Link>
          </li>
          {editable ? (
            <li>
              <Link to={editable.path} className="admin-bar-link admin-bar-edit">
                Edit this page
              </Link>
            </li>
          ) : null}
        </ul>
        <SignOutForm className="admin-bar-signout" buttonClassName="admin-bar-link">
          Sign out
        </SignOutForm>
      </nav>
    </div>
  )
}
