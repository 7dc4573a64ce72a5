import type { Route } from './+types/sitemap.xml'
import { listEventsForSitemap } from '~/modules/events/events.queries.server'
import { listArticlesForSitemap } from '~/modules/news/news.queries.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { escapeMarkup } from '~/platform/escape-markup'

/** The public pages search engines should know; each public feature adds its pages (and items) here. */
const PUBLIC_PATHS = ['/', '/about', '/services', '/support', '/impact', '/contact']

interface SitemapUrl {
  path: string
  lastmod?: string
}

function urlElement(origin: string, { path, lastmod }: SitemapUrl): string {
  const loc = `<loc>${escapeMarkup(new URL(path, origin).toString())}</loc>`
  return `  <url>${loc}${lastmod ? `<lastmod>${escapeMarkup(lastmod)}</lastmod>` : ''}</url>`
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = getSiteOrigin(request, context)
  const [articles, events] = await Promise.all([listArticlesForSitemap(), listEventsForSitemap()])
  const newestChange = articles.map((a) => a.updatedAt).sort().at(-1)
  const urls: SitemapUrl[] = [
    ...PUBLIC_PATHS.map((path) => ({ path })),
    // The news list changes when an article does.
    { path: '/news', lastmod: newestChange },
    ...articles.map((article) => ({ path: `/news/${encodeURIComponent(article.slug)}`, lastmod: article.updatedAt })),
    // The calendar changes by the day (which month it shows); its events have their own pages.
    { path: '/calendar' },
    ...events.map((event) => ({ path: `/calendar/${encodeURIComponent(event.slug)}`, lastmod: event.updatedAt })),
  ]
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((url) => urlElement(origin, url)),
    '</urlset>',
    '',
  ].join('\n')
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
