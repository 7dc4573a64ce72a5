import { Link } from 'react-router'
import { adminListAddress, PUBLICATION_STATE_LABELS, PUBLICATION_STATES, type PublicationState } from '~/platform/publication'

/** An item's state in an admin list, as a word (the colour only helps); a scheduled item says when. */
export function PublicationStateBadge({ state, when }: { state: PublicationState; when?: string | null }) {
  return (
    <>
      {' '}
      <span className={`state-badge state-badge-${state}`}>
        {PUBLICATION_STATE_LABELS[state]}
        {state === 'scheduled' && when ? ` for ${when}` : ''}
      </span>
    </>
  )
}

/**
 * Links that show an admin list's items of one state (`?state=`), or all of them; plain links, so
 * no script is needed. Past the list's first page, the current state's link leads to its first
 * page: it is the current choice, no longer the current page.
 */
export function PublicationStateFilter({
  path,
  current,
  page,
}: {
  path: string
  current: PublicationState | null
  page: number
}) {
  const choices: { state: PublicationState | null; label: string }[] = [
    { state: null, label: 'All' },
    ...PUBLICATION_STATES.map((state) => ({ state, label: PUBLICATION_STATE_LABELS[state] })),
  ]
  return (
    <nav className="state-filter" aria-label="Show by state">
      {choices.map(({ state, label }) => (
        <Link
          key={label}
          to={adminListAddress(path, state)}
          aria-current={state !== current ? undefined : page === 1 ? 'page' : 'true'}
        >
          {label}
        </Link>
      ))}
    </nav>
  )
}
