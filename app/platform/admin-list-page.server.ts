import { data, redirect } from 'react-router'
import { parsePageNumber } from './page-number'
import { adminListAddress, parsePublicationState } from './publication'

/**
 * Admin lists (news, events, gallery, products) show a page of rows at a time: a site that has
 * posted for years must not make each visit to its list render every article it ever had.
 */
export const ADMIN_LIST_PAGE_SIZE = 50

/** How many pages `total` rows make (one, when there are none). */
function listPageCount(total: number): number {
  return Math.max(1, Math.ceil(total / ADMIN_LIST_PAGE_SIZE))
}

/**
 * The page of an admin list of `total` rows that `request` asks for with `?page=` (`asked`):
 * anything but a plain page number is a page that does not exist (404), and a page past the last
 * (rows were deleted meanwhile) leads to the last, with the rest of the query kept.
 */
export function listPageFor(request: Request, asked: string | null, total: number): { page: number; pageCount: number } {
  const page = parsePageNumber(asked)
  if (page === null) throw data('There is no such page.', { status: 404 })
  const pageCount = listPageCount(total)
  if (page > pageCount) {
    const url = new URL(request.url)
    // Page 1 is the list's own address, as its links write it.
    if (pageCount === 1) url.searchParams.delete('page')
    else url.searchParams.set('page', String(pageCount))
    throw redirect(url.pathname + url.search)
  }
  return { page, pageCount }
}

/** The rows a query skips to reach `page`. */
export function listPageOffset(page: number): number {
  return (page - 1) * ADMIN_LIST_PAGE_SIZE
}

/** The rows of `page` from a list the database cannot order itself (events, by their next date). */
export function rowsOnListPage<T>(rows: readonly T[], page: number): T[] {
  return rows.slice(listPageOffset(page), listPageOffset(page) + ADMIN_LIST_PAGE_SIZE)
}

/**
 * The list at `path` as the request that deletes one of its rows was sent from: a delete on page 3
 * of the drafts comes back to page 3 of the drafts (the form posts to the page's own address).
 */
export function backToList(request: Request, path: string): string {
  const query = new URL(request.url).searchParams
  return adminListAddress(path, parsePublicationState(query.get('state')), parsePageNumber(query.get('page')) ?? 1)
}
