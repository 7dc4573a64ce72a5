import { data, Link } from 'react-router'
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
import { clientRateLimitKey } from '~/platform/client-address.server'
import { createRateLimiter, minutesToWait, retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { CACHE_PROFILES } from '~/platform/http-caching'

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: 'Search', description: 'Search the news, photos, events and marketplace of the site.' }),
  // A page per question: search engines are kept to the pages themselves.
  { name: 'robots', content: 'noindex, follow' },
]

// Every question makes another address: the page cache keeps none of them (docs/decisions/028).
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const retryAfter = loaderHeaders.get('Retry-After')
  return { 'Cache-Control': CACHE_PROFILES.search, ...(retryAfter ? { 'Retry-After': retryAfter } : {}) }
}

export const queryParams = declareQueryParams('q', 'page')

/**
 * Searches a client may make: far more than a person types, far fewer than a script that would
 * keep the server busy (one client address may be many phones behind a carrier).
 */
const searchesPerClient = createRateLimiter('search-client', { attempts: 60, windowSeconds: 60, refuseFromMemory: true })

export async function loader({ request, context }: Route.LoaderArgs) {
  const { q, page: pageParam } = queryParams.read(request)
  const page = parsePageNumber(pageParam)
  if (page === null || page > SEARCH_PAGES_MAX)
    throw data(null, { status: 404, headers: { 'Cache-Control': CACHE_PROFILES.search } })
  const text = (q ?? '').trim().slice(0, SEARCH_TEXT_MAX)
  if (text !== '') {
    const verdict = await searchesPerClient.hit(clientRateLimitKey(context.get(requestInfoContext).clientIp))
    if (verdict.limited) {
      return data(
        { text, found: null, waitFor: minutesToWait(verdict.retryAfterSeconds) },
        { status: 429, headers: { 'Cache-Control': CACHE_PROFILES.search, ...retryAfterHeaders(verdict) } },
      )
    }
  }
  return { text, found: await searchSite(text, page), waitFor: null }
}

function searchHref(text: string, page: number): string {
  const params = new URLSearchParams({ q: text })
  if (page > 1) params.set('page', String(page))
  return `/search?${params.toString()}`
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { text, found, waitFor } = loaderData
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

      {found === null ? (
        <p className="search-summary" role="alert">
          {`Many searches came from your connection in a short time. Please wait ${waitFor} and try again.`}
        </p>
      ) : !asked ? (
        <p className="search-summary">Type a word or two to find news, photos, events and products.</p>
      ) : found.words.length === 0 && /[\p{L}\p{N}]/u.test(text) ? (
        <p className="search-summary">“{text}” has only words found almost everywhere. Try a more particular word.</p>
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
