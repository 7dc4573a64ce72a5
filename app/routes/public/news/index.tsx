import { data, useOutlet, type ShouldRevalidateFunctionArgs, Link } from 'react-router'
import type { Route } from './+types/index'
import { editHandle } from '~/components/admin-bar'
import { AdminEntryLink } from '~/components/admin-entry-link'
import { ConfirmButton } from '~/components/confirm-button'
import { useRootData } from '~/components/root-data'
import { NewsletterSignup } from '~/components/newsletter-signup'
import { Pagination } from '~/components/pagination'
import { ResponsiveImage } from '~/components/responsive-image'
import { OPENED_OVER_LIST, RouteDialog } from '~/components/route-dialog'
import { listPublishedArticlesForVisitors } from '~/modules/news/news.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { canManage } from '~/platform/access'
import { pageMeta } from '~/platform/seo'
import { parsePageNumber } from '~/platform/page-number'
import { declareQueryParams } from '~/platform/query-params'

export const links: Route.LinksFunction = () => [
  { rel: 'alternate', type: 'application/rss+xml', title: 'Latest News', href: '/news/feed.xml' },
]

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'Latest News', description: 'News and updates from our ministry and community.' })

export const queryParams = declareQueryParams('page')

/** The admin bar's "Edit this page". */
export const handle = editHandle(() => ({ section: 'news', path: '/admin/news' }))

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Loaded directly, /news/<slug> shows the article alone: the list is not needed (see shouldRevalidate).
  if (params.slug) return { list: null }
  const page = parsePageNumber(queryParams.read(request).page)
  if (page === null) throw data(null, { status: 404 })
  const { timeZone } = await siteSettingsFor(context)
  const list = await listPublishedArticlesForVisitors(page, timeZone)
  if (page > list.pageCount) throw data(null, { status: 404 })
  return { list }
}

export function shouldRevalidate({
  currentUrl,
  currentParams,
  nextParams,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // Opening an article over the list: the list stays as it is (only the article is fetched).
  if (currentUrl.pathname === '/news' && !currentParams.slug && nextParams.slug) return false
  // Leaving an article: if it was loaded on its own, the list was skipped, so fetch it now.
  if (currentParams.slug && !nextParams.slug) return true
  return defaultShouldRevalidate
}

export default function News({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData
  const article = useOutlet({ inDialog: list !== null })
  const { user } = useRootData()
  // A direct load of an article: the article's own page.
  if (!list) return article

  const { articles, page, pageCount } = list
  const manager = canManage(user, 'news')
  return (
    <div className="container section news-page">
      <div className="news-header">
        <h1>Latest News</h1>
        <a href="/news/feed.xml" className="news-feed-link">
          RSS feed
        </a>
        {manager ? (
          <Link to="/admin/news/new?from=news" className="button button-small">
            Add article
          </Link>
        ) : null}
      </div>

      {articles.length === 0 ? (
        <div className="news-empty">
          <h2>No Articles Yet</h2>
          <p>Check back soon for new updates.</p>
        </div>
      ) : (
        <ul className="news-grid">
          {articles.map((item, index) => (
            <li key={item.slug} className="news-card">
              {item.image ? (
                <ResponsiveImage
                  image={item.image}
                  sizes="(min-width: 72rem) 22rem, (min-width: 40rem) 45vw, 100vw"
                  loading={index < 2 && page === 1 ? 'eager' : 'lazy'}
                  className="news-card-image"
                />
              ) : (
                <div className="news-card-image news-card-placeholder" />
              )}
              <div className="news-card-body">
                <h2 className="news-card-title">
                  <Link to={`/news/${item.slug}`} state={OPENED_OVER_LIST} preventScrollReset className="news-card-link">
                    {item.title}
                  </Link>
                </h2>
                <p className="news-meta">
                  <time dateTime={item.publishedAt}>{item.dateLabel}</time>
                  <span aria-hidden="true"> · </span>
                  <span>{item.readMinutes} min read</span>
                </p>
                <p className="news-card-excerpt">{item.excerpt}</p>
                {manager ? (
                  <div className="button-row news-card-manage">
                    <Link to={`/admin/news/${item.id}`} className="button-secondary button-small">
                      Edit<span className="visually-hidden"> {item.title}</span>
                    </Link>
                    <ConfirmButton
                      action="/admin/news"
                      hiddenFields={{ id: item.id, returnTo: '/news' }}
                      label="Delete article"
                      title="Delete article"
                      confirmText="Are you sure you want to delete this article?"
                      confirmLabel="Delete"
                      className="button-danger button-small"
                    />
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}

      <Pagination
        page={page}
        pageCount={pageCount}
        label="More articles"
        hrefOf={(p) => (p === 1 ? '/news' : `/news?page=${p}`)}
        newerLabel="Newer articles"
        olderLabel="Older articles"
        className="news-pagination"
        linkClassName="button-secondary"
      />

      <NewsletterSignup
        idPrefix="news-signup"
        heading="Get the news by e-mail"
        defaultTopics={['news']}
        className="card news-signup"
      />

      <AdminEntryLink section="news" returnTo="/news" />
      {article ? (
        <RouteDialog labelledBy="article-title" closeTo="/news" closeLabel="Close article">
          {article}
        </RouteDialog>
      ) : null}
    </div>
  )
}
