import { Pagination } from '~/components/pagination'
import { adminListAddress, type PublicationState } from '~/platform/publication'

/** An admin list's title, with its page after the first: 'News, page 2 of 3 | Site admin'. */
export function adminListTitle(name: string, list: { page: number; pageCount: number } | undefined): string {
  const page = list && list.page > 1 ? `, page ${list.page} of ${list.pageCount}` : ''
  return `${name}${page} | Site admin`
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
