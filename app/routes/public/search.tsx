import { data } from 'react-router'
import { Link } from '~/components/link'
import type { Route } from './+types/search'
import { Pagination } from '~/components/pagination'
import { SearchMarks } from '~/components/search-marks'
import { SearchForm } from '~/components/search-form'
import { SEARCH_PAGES_MAX, searchSite } from '~/modules/search/search.queries.server'
import { PUBLISHABLE_KINDS } from '~/platform/publication'
import { SEARCH_TEXT_MAX } from '~/modules/search/search-words'
import { parsePageNumber } from '~/platform/page-number'
import { pageMeta } from '~/platform/seo'
import { declareQueryParams } from '~/platform/query-params'

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: 'Search', description: 'Search the news, photos, events and marketplace of the site.' }),
  // A page per question: search engines are kept to the pages themselves.
  { name: 'robots', content: 'noindex, follow' },
]

// Every question makes another address: the page cache keeps none of them (docs/decisions/028).
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-cache' })

export const queryParams = declareQueryParams('q', 'page')

export async function loader({ request }: Route.LoaderArgs) {
  const { q, page: pageParam } = queryParams.read(request)
  const page = parsePageNumber(pageParam)
  if (page === null || page > SEARCH_PAGES_MAX)
    throw data(null, { status: 404, headers: { 'Cache-Control': 'private, no-cache' } })
  const text = (q ?? '').trim().slice(0, SEARCH_TEXT_MAX)
  return { text, found: await searchSite(text, page) }
}

function searchHref(text: string, page: number): string {
  const params = new URLSearchParams({ q: text })
  if (page > 1) params.set('page', String(page))
  return `/search?${params.toString()}`
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { text, found } = loaderData
  const asked = text !== ''
  return (
    <div className="container section search-page">
      <h1>Search</h1>
      <SearchForm
        action="/search"
        id="search-page-q"
        label="Search the site"
        placeholder="News, photos, events, products…"
        words={text}
        landmark="Results"
        className="search-form"
        inputClassName="search-input"
        buttonClassName="button"
        button="Search"
      />

      {!asked ? (
        <p className="search-summary">Type a word or two to find news, photos, events and products.</p>
      ) : found.words.length === 0 ? (
        <p className="search-summary">Search with letters or numbers: “{text}” has none.</p>
      ) : found.total === 0 ? (
        <p className="search-summary">Nothing found for “{text}”. Try other words, or fewer of them.</p>
      ) : (
        <>
          <p className="search-summary" aria-live="polite">
            {found.total === 1 ? '1 result' : `${found.total}${found.capped ? '+' : ''} results`} for “{text}”
          </p>
          <ol className="search-results">
            {found.results.map((result) => (
              <li key={result.href} className="search-result">
                <span className="search-result-kind">{PUBLISHABLE_KINDS[result.kind].searchLabel}</span>
                <h2 className="search-result-title">
                  <Link to={result.href}>
                    <SearchMarks parts={result.title} />
                  </Link>
                </h2>
                {result.snippet.length > 0 ? (
                  <p className="search-result-snippet">
                    <SearchMarks parts={result.snippet} />
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
          <Pagination
            page={found.page}
            pageCount={found.pageCount}
            label="More results"
            hrefOf={(page) => searchHref(text, page)}
            newerLabel="← Better matches"
            olderLabel="More results →"
            className="search-pagination"
            linkClassName="button button-secondary button-small"
          />
        </>
      )}
    </div>
  )
}
