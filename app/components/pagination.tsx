import { Link } from 'react-router'

/** Links to the newer and older pages of a list shown newest first; nothing when it fits on one page. */
export function Pagination({
  page,
  pageCount,
  label,
  hrefOf,
  newerLabel,
  olderLabel,
  className,
  linkClassName,
}: {
  page: number
  pageCount: number
  /** The navigation's accessible name, e.g. 'More articles'. */
  label: string
  hrefOf: (page: number) => string
  newerLabel: string
  olderLabel: string
  className: string
  linkClassName: string
}) {
  if (pageCount <= 1) return null
  return (
    <nav className={className} aria-label={label}>
      {page > 1 ? (
        <Link to={hrefOf(page - 1)} className={linkClassName} rel="prev">
          {newerLabel}
        </Link>
      ) : null}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={hrefOf(page + 1)} className={linkClassName} rel="next">
          {olderLabel}
        </Link>
      ) : null}
    </nav>
  )
}
