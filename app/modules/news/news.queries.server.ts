import { ADMIN_LIST_PAGE_SIZE, listPageOffset } from '~/platform/admin-list-page.server'
import { db } from '~/platform/db.server'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { loadImagesOf, pickSocialImage, toResponsiveImage, type ImageRecord } from '~/platform/media/images.server'
import { articleExcerpt, articlePlainText, readMinutes, renderArticleHtml } from './article-text.server'
import { ARTICLES_PER_PAGE } from './news.schema'
import { isInState, isPublicNow, isVisibleTo, type Audience } from '~/platform/publication.server'
import { lastChangeOf, type PublicationState } from '~/platform/publication'
import { formatDate } from '~/platform/dates'

export interface ArticleSummary {
  /** For an administrator's controls on the public pages (edit, delete). */
  id: string
  slug: string
  title: string
  excerpt: string
  readMinutes: number
  /** When it went (or goes) public: its publish time, or when it was written for a draft. */
  publishedAt: string
  image: ResponsiveImageData | null
}

export interface ArticleDetail extends ArticleSummary {
  html: string
  updatedAt: string
  /** A JPEG small enough for link previews (a path). */
  socialImage: { path: string; width: number; height: number; bytes: number; alt: string } | null
}

export interface ArticlePage {
  articles: ArticleSummary[]
  page: number
  pageCount: number
}

const SUMMARY_COLUMNS = ['id', 'slug', 'title', 'content', 'imageId', 'createdAt', 'publishAt', 'updatedAt'] as const

type ArticleRow = {
  id: string
  slug: string
  title: string
  content: string
  imageId: string | null
  createdAt: string
  publishAt: string | null
}

function toSummary(row: ArticleRow, image: ImageRecord | undefined): ArticleSummary {
  const text = articlePlainText(row.content)
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: articleExcerpt(text),
    readMinutes: readMinutes(text),
    publishedAt: row.publishAt ?? row.createdAt,
    image: image ? toResponsiveImage(image) : null,
  }
}

/** The published articles on /news, newest first (a scheduled one by its time); the id orders articles published at the same moment. */
function newestNews() {
  return db.selectFrom('articles').where(isPublicNow('articles')).orderBy('publishAt', 'desc').orderBy('id', 'desc')
}

/** One page of the public news list, newest first. */
export async function listPublishedArticles(page: number): Promise<ArticlePage> {
  const { total } = await db
    .selectFrom('articles')
    .where(isPublicNow('articles'))
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow()
  const rows = await newestNews()
    .select(SUMMARY_COLUMNS)
    .limit(ARTICLES_PER_PAGE)
    .offset((page - 1) * ARTICLES_PER_PAGE)
    .execute()
  const imageOf = await loadImagesOf(rows)
  return {
    articles: rows.map((row) => toSummary(row, imageOf(row))),
    page,
    pageCount: Math.max(1, Math.ceil(Number(total) / ARTICLES_PER_PAGE)),
  }
}

/** A page of the list with each article's date as read in the site's time zone ("November 26, 2026"). */
export interface LabelledArticlePage extends Omit<ArticlePage, 'articles'> {
  articles: (ArticleSummary & { dateLabel: string })[]
}

/** A page of the news list for visitors; `page` is a page number the list accepts. */
export async function listPublishedArticlesForVisitors(page: number, timeZone: string): Promise<LabelledArticlePage> {
  const list = await listPublishedArticles(page)
  const articles = list.articles.map((article) => ({
    ...article,
    dateLabel: formatDate(article.publishedAt, timeZone, 'date'),
  }))
  return { ...list, articles }
}

function toDetail(
  row: ArticleRow & { updatedAt: string },
  image: ImageRecord | undefined,
  linksFrom?: { origin: string },
): ArticleDetail {
  const social = image ? pickSocialImage(image) : null
  return {
    ...toSummary(row, image),
    html: renderArticleHtml(row.content, linksFrom),
    updatedAt: row.updatedAt,
    socialImage: social && image ? { ...social, alt: image.alt || row.title } : null,
  }
}

/** An article by its address, as `audience` sees it (visitors, or a preview link's reader). */
export async function getPublishedArticleBySlug(slug: string, audience: Audience = 'public'): Promise<ArticleDetail | null> {
  const row = await db
    .selectFrom('articles')
    .select(SUMMARY_COLUMNS)
    .where('slug', '=', slug)
    .where(isVisibleTo('articles', audience))
    .executeTakeFirst()
  if (!row) return null
  const imageOf = await loadImagesOf([row])
  return toDetail(row, imageOf(row))
}

/** A public article in full, its links and image starting with `origin`: for the e-mail to subscribers. */
export async function getPublicArticleForEmail(id: string, origin: string): Promise<ArticleDetail | null> {
  const row = await db
    .selectFrom('articles')
    .select(SUMMARY_COLUMNS)
    .where('id', '=', id)
    .where(isPublicNow('articles'))
    .executeTakeFirst()
  if (!row) return null
  const imageOf = await loadImagesOf([row])
  return toDetail(row, imageOf(row), { origin })
}

/** The newest articles in full, for the feed: their links to the site's own pages start with `origin`. */
export async function listArticlesForFeed(origin: string, limit = 20): Promise<ArticleDetail[]> {
  const rows = await newestNews().select(SUMMARY_COLUMNS).limit(limit).execute()
  const imageOf = await loadImagesOf(rows)
  return rows.map((row) => toDetail(row, imageOf(row), { origin }))
}

export interface ArticleSitemapEntry {
  slug: string
  updatedAt: string
}

// A sitemap file holds at most 50,000 addresses; the static pages and /news take a few.
const SITEMAP_ARTICLE_LIMIT = 49_000

/** The address and last change of every article on /news, newest first, for sitemap.xml. */
export async function listArticlesForSitemap(): Promise<ArticleSitemapEntry[]> {
  const rows = await newestNews().select(['slug', 'updatedAt', 'publishAt']).limit(SITEMAP_ARTICLE_LIMIT).execute()
  return rows.map((row) => ({ slug: row.slug, updatedAt: lastChangeOf(row) }))
}

export interface AdminArticleRow {
  id: string
  slug: string
  title: string
  createdAt: string
  hasImage: boolean
  /** Demo content of a new site (administrators only). */
  isSample: boolean
  publishAt: string | null
}

/** A page of the articles out of the trash (or those in `state`), newest first. */
export async function listArticlesForAdmin(state: PublicationState | null = null, page = 1): Promise<AdminArticleRow[]> {
  const rows = await db
    .selectFrom('articles')
    .select(['id', 'slug', 'title', 'imageId', 'createdAt', 'isSample', 'publishAt'])
    .where(isInState('articles', state))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(ADMIN_LIST_PAGE_SIZE)
    .offset(listPageOffset(page))
    .execute()
  return rows.map(({ imageId, isSample, ...row }) => ({ ...row, hasImage: imageId !== null, isSample: isSample === 1 }))
}

export interface ArticleForEdit {
  id: string
  slug: string
  title: string
  content: string
  image: ResponsiveImageData | null
  publishAt: string | null
  trashedAt: string | null
}

export async function getArticleForEdit(id: string): Promise<ArticleForEdit | null> {
  const row = await db
    .selectFrom('articles')
    .select(['id', 'slug', 'title', 'content', 'imageId', 'publishAt', 'trashedAt'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const image = (await loadImagesOf([row]))(row)
  const { imageId: _imageId, ...article } = row
  return { ...article, image: image ? toResponsiveImage(image) : null }
}
