/**
 * The query parameters a route reads: `export const queryParams = declareQueryParams('page')`, then
 * `queryParams.read(request)`. The server drops every other parameter of a GET, and the page cache
 * keeps one page per declared value (server/declared-query.ts, docs/decisions/017-page-cache.md).
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
