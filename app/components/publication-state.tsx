import { Link } from '~/components/link'
import { Pagination } from '~/components/pagination'
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

/** Links that show an admin list's items of one state (`?state=`), or all of them; plain links, so no script is needed. */
export function PublicationStateFilter({ path, current }: { path: string; current: PublicationState | null }) {
  const choices: { state: PublicationState | null; label: string }[] = [
    { state: null, label: 'All' },
    ...PUBLICATION_STATES.map((state) => ({ state, label: PUBLICATION_STATE_LABELS[state] })),
  ]
  return (
    <nav className="state-filter" aria-label="Show by state">
      {choices.map(({ state, label }) => (
        <Link key={label} to={adminListAddress(path, state)} aria-current={state === current ? 'page' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  )
}

/** The previous and next pages of an admin list, in the state it is filtered by. */
export function AdminListPagination({
  path,
  state,
  page,
  pageCount,
  label,
}: {
  path: string
  state: PublicationState | null
  page: number
  pageCount: number
  /** The navigation's accessible name, e.g. 'Pages of articles'. */
  label: string
}) {
  return (
    <Pagination
      page={page}
      pageCount={pageCount}
      label={label}
      hrefOf={(p) => adminListAddress(path, state, p)}
      newerLabel="Previous page"
      olderLabel="Next page"
      className="button-row"
      linkClassName="button-secondary button-small"
    />
  )
}
