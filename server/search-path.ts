/**
 * Whether a path is the search page however it is written: React Router matches /search, /SEARCH/,
 * /%73earch and the data request /search.data alike, and all of them wait in the searches' lane.
 */
export function isSearchPath(pathname: string): boolean {
  let path = pathname
  try {
    path = decodeURIComponent(pathname)
  } catch {
    // Not a path React Router decodes either.
  }
  return (
    path
      .toLowerCase()
      .replace(/\/+$/, '')
      .replace(/\.data$/, '') === '/search'
  )
}
