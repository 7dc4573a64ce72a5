/**
 * The query parameters a route reads, declared beside it and read through the declaration:
 *
 *     export const queryParams = declareQueryParams('page')
 *     …
 *     const { page } = queryParams.read(request)
 *
 * A GET reaches the routes with only the parameters that the routes of its address declare
 * (server/declared-query.ts): anything else in the address is dropped before React Router sees it,
 * in development as in production, so a parameter read without being declared is never there.
 * The page cache keeps one page per value of the declared parameters and answers every other
 * address of the page (`?fbclid=…`, junk) with the same one (docs/decisions/017-page-cache.md).
 */
export interface QueryParams<Name extends string> {
  readonly names: readonly Name[]
  /** Each parameter's first value in the request's address, or null. */
  read(request: Request): Record<Name, string | null>
}

/** What the server reads in a route module: its `queryParams` export, if it has one. */
export interface DeclaresQueryParams {
  queryParams?: QueryParams<string>
}

export function declareQueryParams<const Name extends string>(...names: Name[]): QueryParams<Name> {
  return {
    names,
    read(request) {
      const params = new URL(request.url).searchParams
      return Object.fromEntries(names.map((name) => [name, params.get(name)])) as Record<Name, string | null>
    },
  }
}
