import { data, redirect } from 'react-router'
import { pageAddressOf } from './page-address.server'
import { parsePageNumber } from './page-number'
import { adminListAddress, parsePublicationState } from './publication'

/**
 * Admin lists (news, events, gallery, products, messages, subscribers, the audit log) show a page
 * of rows at a time: a site that has posted for years must not make each visit to its list render
 * every article it ever had.
 */
export const ADMIN_LIST_PAGE_SIZE = 50

/** The page an admin list's `?page=` asks for: anything but a plain page number is a page that does not exist (404). */
export function askedListPage(asked: string | null): number {
  const page = parsePageNumber(asked)
  if (page === null) throw data('There is no such page.', { status: 404 })
  return page
}

/**
 * How many pages a list of `total` rows makes (one, when there are none). A `page` past the last
 * (rows were deleted meanwhile) leads to the last, with the rest of the request's query kept.
 */
export function listPageCount(request: Request, page: number, total: number): number {
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_LIST_PAGE_SIZE))
  if (page > pageCount) {
    const url = pageAddressOf(request)
    // Page 1 is the list's own address, as its links write it.
    if (pageCount === 1) url.searchParams.delete('page')
    else url.searchParams.set('page', String(pageCount))
    throw redirect(url.pathname + url.search)
  }
  return pageCount
}

/** The rows a query skips to reach `page`. */
export function listPageOffset(page: number): number {
  return (page - 1) * ADMIN_LIST_PAGE_SIZE
}

/**
 * Where a delete goes back to: `returnTo`, the form's checked choice of the admin list at its
 * default or a public page. The admin list comes back at the page and state the request was sent
 * from (the form posts to the list's own address): a delete on page 3 of the drafts returns there.
 */
export function backToList(request: Request, returnTo: string): string {
  if (!returnTo.startsWith('/admin/')) return returnTo
  const query = new URL(request.url).searchParams
  return adminListAddress(returnTo, parsePublicationState(query.get('state')), parsePageNumber(query.get('page')) ?? 1)
}
