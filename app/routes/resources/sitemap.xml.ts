import type { Route } from './+types/sitemap.xml'
import { listEventsForSitemap } from '~/modules/events/events.queries.server'
import { listMediaForSitemap } from '~/modules/gallery/gallery.queries.server'
import { listProductSlugs } from '~/modules/marketplace/marketplace.queries.server'
import { listArticlesForSitemap } from '~/modules/news/news.queries.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { escapeMarkup } from '~/platform/escape-markup'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** The public pages search engines should know; each public feature adds its pages (and items) here. */
const PUBLIC_PATHS = ['/', '/about', '/services', '/support', '/impact', '/contact', '/privacy']

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
  const [articles, events, media, products] = await Promise.all([
    listArticlesForSitemap(),
    listEventsForSitemap(),
    listMediaForSitemap(),
    listProductSlugs(),
  ])
  const newestOf = (entries: { updatedAt: string }[]) =>
    entries
      .map((e) => e.updatedAt)
      .sort()
      .at(-1)
  const urls: SitemapUrl[] = [
    ...PUBLIC_PATHS.map((path) => ({ path })),
    // A list changes when one of its items does.
    { path: '/news', lastmod: newestOf(articles) },
    ...articles.map((article) => ({ path: `/news/${encodeURIComponent(article.slug)}`, lastmod: article.updatedAt })),
    // The calendar changes by the day (which month it shows); its events have their own pages.
    { path: '/calendar' },
    ...events.map((event) => ({ path: `/calendar/${encodeURIComponent(event.slug)}`, lastmod: event.updatedAt })),
    { path: '/photos', lastmod: newestOf(media) },
    ...media.map((item) => ({ path: `/photos/${encodeURIComponent(item.slug)}`, lastmod: item.updatedAt })),
    { path: '/marketplace', lastmod: newestOf(products) },
    ...products.map((product) => ({ path: `/marketplace/${encodeURIComponent(product.slug)}`, lastmod: product.updatedAt })),
  ]
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((url) => urlElement(origin, url)),
    '</urlset>',
    '',
  ].join('\n')
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': CACHE_PROFILES.forCrawlers },
  })
}
