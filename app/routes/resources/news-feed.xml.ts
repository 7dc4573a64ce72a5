import type { Route } from './+types/news-feed.xml'
import { listArticlesForFeed } from '~/modules/news/news.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { escapeMarkup } from '~/platform/escape-markup'
import { getSiteOrigin } from '~/platform/site-url.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** The latest articles as RSS 2.0, for feed readers (advertised on /news with <link rel="alternate">). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = getSiteOrigin(request, context)
  // The feed writer is loaded when a reader first asks, not in every process that only serves pages.
  const [articles, settings, { Feed }] = await Promise.all([
    listArticlesForFeed(origin),
    siteSettingsFor(context),
    import('feed'),
  ])
  // Many readers show titles and descriptions as HTML: plain text must not become markup there.
  const feed = new Feed({
    id: `${origin}/news`,
    link: `${origin}/news`,
    title: escapeMarkup(`Latest News | ${settings.organisationName}`),
    description: escapeMarkup(settings.tagline),
    language: 'en',
    generator: false,
    updated: articles[0] ? new Date(articles[0].updatedAt) : undefined,
    feedLinks: { rss: `${origin}/news/feed.xml` },
    copyright: escapeMarkup(settings.organisationName),
  })
  for (const article of articles) {
    const link = `${origin}/news/${article.slug}`
    feed.addItem({
      id: link,
      link,
      title: escapeMarkup(article.title),
      description: escapeMarkup(article.excerpt),
      content: article.html,
      date: new Date(article.publishedAt),
      image: article.socialImage
        ? { url: `${origin}${article.socialImage.path}`, type: 'image/jpeg', length: article.socialImage.bytes }
        : undefined,
    })
  }
  return new Response(feed.rss2(), {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'Cache-Control': CACHE_PROFILES.feed,
    },
  })
}
