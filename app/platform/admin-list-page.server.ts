import { data, redirect } from 'react-router'
import { parsePageNumber } from './page-number'

/**
 * Admin lists (news, events, gallery, products) show a page of rows at a time: a site that has
 * posted for years must not make each visit to its list render every article it ever had.
 */
export const ADMIN_LIST_PAGE_SIZE = 50

/** The `?page=` of an admin list; anything but a plain page number is a page that does not exist. */
export function requestedListPage(value: string | null): number {
  const page = parsePageNumber(value)
  if (page === null) throw data('There is no such page.', { status: 404 })
  return page
}

/** How many pages `total` rows make (one, when there are none). */
export function listPageCount(total: number): number {
  return Math.max(1, Math.ceil(total / ADMIN_LIST_PAGE_SIZE))
}

/** The rows a query skips to reach `page`. */
export function listPageOffset(page: number): number {
  return (page - 1) * ADMIN_LIST_PAGE_SIZE
}

/** Past the last page (rows were deleted meanwhile): the last page, with the rest of the query kept. */
export function throwIfPastLastPage(request: Request, page: number, pageCount: number): void {
  if (page <= pageCount) return
  const url = new URL(request.url)
  url.searchParams.set('page', String(pageCount))
  throw redirect(url.pathname + url.search)
}

/** The rows of `page` from a list the database cannot order itself (events, by their next date). */
export function rowsOnListPage<T>(rows: readonly T[], page: number): T[] {
  return rows.slice(listPageOffset(page), listPageOffset(page) + ADMIN_LIST_PAGE_SIZE)
}
