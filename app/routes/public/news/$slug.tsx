import { data, useOutletContext } from 'react-router'
import type { Route } from './+types/$slug'
import { editHandle } from '~/components/admin-bar'
import { useShipsScripts, WITHOUT_SCRIPTS } from '~/components/page-scripts'
import { CopyButton } from '~/components/copy-button'
import { NewTabLink } from '~/components/new-tab-link'
import { ResponsiveImage } from '~/components/responsive-image'
import { useRootData } from '~/components/root-data'
import { PreviewBanner } from '~/components/preview-banner'
import { getPublishedArticleBySlug } from '~/modules/news/news.queries.server'
import { pagePreview, previewPageHeaders } from '~/modules/previews/preview-page.server'
import { previewQueryParam } from '~/modules/previews/previews'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requestInfoContext } from '~/platform/request-context'
import { formatDate } from '~/platform/dates'
import { declareQueryParams } from '~/platform/query-params'
import { itemPageMeta, NOINDEX } from '~/platform/seo'
import { getSiteOrigin } from '~/platform/site-url.server'
import { BackLink } from '~/components/back-link'

/** The admin bar's "Edit this page". */
export const handle = {
  ...editHandle<Route.ComponentProps['loaderData']>(({ article }) => ({
    section: 'news',
    path: `/admin/news/${encodeURIComponent(article.id)}`,
  })),
  ...WITHOUT_SCRIPTS,
}

export const queryParams = declareQueryParams(previewQueryParam)

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const settings = await siteSettingsFor(context)
  const origin = getSiteOrigin(request, context)
  const preview = await pagePreview(queryParams.read(request).preview, 'articles', {
    url: url.href,
    origin,
    timeZone: settings.timeZone,
    secure: context.get(requestInfoContext).secure,
  })
  const article = await getPublishedArticleBySlug(params.slug, preview.audience)
  if (!article) throw data(null, { status: 404 })
  return data(
    {
      article: { ...article, dateLabel: formatDate(article.publishedAt, settings.timeZone, 'date') },
      url: `${origin}/news/${article.slug}`,
      preview: preview.notice,
    },
    { headers: preview.headers },
  )
}

export const headers: Route.HeadersFunction = previewPageHeaders

export const meta: Route.MetaFunction = (args) => {
  const article = args.loaderData?.article
  if (!article) return []
  return itemPageMeta(args, {
    title: article.title,
    description: article.excerpt,
    socialImage: article.socialImage,
    dates: { createdAt: article.publishedAt, updatedAt: article.updatedAt },
    extra: args.loaderData.preview ? [NOINDEX] : [],
  })
}

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { article, url, preview } = loaderData
  // Shown inside the list's dialog when opened from the list; on its own page otherwise.
  const { inDialog } = useOutletContext<{ inDialog: boolean }>()
  const { settings } = useRootData()
  return (
    <>
      {preview ? <PreviewBanner notice={preview} /> : null}
      <article className={inDialog ? 'news-article' : 'container section news-article news-article-page'}>
        {inDialog ? null : <BackLink to="/news">← All news</BackLink>}
        <h1 id="article-title">{article.title}</h1>
        <p className="news-meta">
          <time dateTime={article.publishedAt}>{article.dateLabel}</time>
          <span aria-hidden="true"> · </span>
          <span>{article.readMinutes} min read</span>
        </p>
        {article.image ? (
          <ResponsiveImage
            image={article.image}
            sizes="(min-width: 48rem) 46rem, 100vw"
            loading="eager"
            className="news-article-image"
          />
        ) : null}
        {/* Rendered from Markdown on the server with raw HTML disabled and only http(s)/mailto links. */}
        <div className="markdown-text news-article-text" dangerouslySetInnerHTML={{ __html: article.html }} />
        {preview ? null : <ShareLinks url={url} title={article.title} organisation={settings.organisationName} />}
      </article>
    </>
  )
}

function ShareLinks({ url, title, organisation }: { url: string; title: string; organisation: string }) {
  const whatsapp = `https://wa.me/?${new URLSearchParams({ text: `${title} – ${organisation}\n${url}` })}`
  const facebook = `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: url })}`
  // The article's own page stays without any script (decision 032): the address bar has the link.
  const shipsScripts = useShipsScripts()
  return (
    <section className="news-share" aria-labelledby="share-heading">
      <h2 id="share-heading" className="news-share-heading">
        Share this article
      </h2>
      <div className="button-row">
        <NewTabLink href={whatsapp} className="button-secondary button-small">
          WhatsApp
        </NewTabLink>
        <NewTabLink href={facebook} className="button-secondary button-small">
          Facebook
        </NewTabLink>
        {shipsScripts ? (
          <CopyButton
            value={url}
            label="Copy link"
            copied="Link copied"
            failed="Could not copy; copy the address from the address bar."
          />
        ) : null}
      </div>
    </section>
  )
}
