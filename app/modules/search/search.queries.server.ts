import { sql, type RawBuilder } from 'kysely'
import { dialectName, longReadsDb } from '~/platform/db.server'
import { isPublicNowSql } from '~/platform/publication.server'
import { PUBLISHABLE_KINDS, type PublishableKind } from '~/platform/publication'
import { isReadyToShow } from '~/modules/gallery/gallery.queries.server'
import { markedParts, searchWords, type TextPart } from './search-words'
import { markedWhole, passage, PASSAGE_SCAN_MAX } from './passages'

/** What the index holds (db/migrations/0022-site-search.ts): the publishable kinds. */
export type SearchKind = PublishableKind

const RESULTS_PER_PAGE = 20
/** The deepest page: nobody reads further, and a page of a billion costs what page 1 costs. */
export const SEARCH_PAGES_MAX = 25
const COUNT_MAX = RESULTS_PER_PAGE * SEARCH_PAGES_MAX
/**
 * Matches ranked before the visitor's condition is applied: room for rows a visitor may not see.
 * Ranking reads each match's word positions, so it is bounded too: a word in a thousand long
 * articles costs what a word in two thousand does.
 */
const CANDIDATES_MAX = COUNT_MAX * 2

export interface SearchResult {
  kind: SearchKind
  href: string
  title: TextPart[]
  snippet: TextPart[]
}

export interface SearchPage {
  words: string[]
  results: SearchResult[]
  /** Matches shown to visitors, counted up to the last page's end. */
  total: number
  /** True when there may be more matches than counted. */
  capped: boolean
  page: number
  pageCount: number
}

/**
 * Which indexed rows a visitor may see now, as a condition on the source rows joined by
 * `visibleSources()`: what is public now (published, not in the trash), gallery videos once converted.
 */
function shownToVisitorsNow(): RawBuilder<boolean> {
  const now = new Date()
  return sql<boolean>`((articles.id is not null and ${isPublicNowSql('articles', now)})
    or (events.id is not null and ${isPublicNowSql('events', now)})
    or (products.id is not null and ${isPublicNowSql('products', now)})
    or (media_items.id is not null and ${isPublicNowSql('mediaItems', now)} and ${isReadyToShow}))`
}

/** The source rows of the index rows `found` (kind, source_id): a result always comes from its row. */
function visibleSources(found: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${found}
    left join articles on found.kind = 'article' and articles.id = found.source_id
    left join media_items on found.kind = 'media' and media_items.id = found.source_id
    left join videos on videos.id = media_items.video_id
    left join events on found.kind = 'event' and events.id = found.source_id
    left join products on found.kind = 'product' and products.id = found.source_id`
}

const SLUG = sql`coalesce(articles.slug, media_items.slug, events.slug, products.slug)`

/** SQLite's FTS5 query: each word quoted, all of them required. */
function ftsQuery(words: string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' ')
}

/** PostgreSQL's query: the words as plain text, stemmed and without accents like the index. */
function tsQuery(words: string[]): RawBuilder<unknown> {
  return sql`plainto_tsquery('search_english', ${words.join(' ')})`
}

/**
 * Index rows matching the words, ranked (kind, source_id, score: lower is better): at most
 * CANDIDATES_MAX matches are ranked, the newest on SQLite (its row numbers grow), the first the
 * index finds on PostgreSQL. On SQLite the CROSS JOIN keeps that list as the outer loop.
 */
function matchingRows(words: string[]): RawBuilder<unknown> {
  return dialectName === 'postgres'
    ? sql`(select kind, source_id, -ts_rank(document, ${tsQuery(words)}) as score from
            (select kind, source_id, document from search_index where document @@ ${tsQuery(words)}
             limit ${CANDIDATES_MAX}) matched) found`
    : sql`(select r.kind, r.source_id, top.score from
            (select rowid as row_id, bm25(search_index, 4.0, 1.0) as score from search_index
             where search_index match ${ftsQuery(words)} order by rowid desc limit ${CANDIDATES_MAX}) top
          cross join search_index_rows r on r.id = top.row_id) found`
}

interface RankedRow {
  kind: SearchKind
  sourceId: string
  slug: string
}

interface StoredText {
  kind: SearchKind
  sourceId: string
  title: string
  body: string
}

/**
 * The title and the opening of the body of each row of the page, as the index keeps them; the
 * passages are made from those (./passages.ts), the same on both databases.
 */
async function storedTexts(rows: RankedRow[]): Promise<Map<string, StoredText>> {
  if (rows.length === 0) return new Map()
  const keys = sql.join(rows.map((r) => sql`(${r.kind}, ${r.sourceId})`))
  const opening = sql`substr(body, 1, ${PASSAGE_SCAN_MAX})`
  const stored =
    dialectName === 'postgres'
      ? await sql<StoredText>`select kind, source_id, title, ${opening} as body
          from search_index where (kind, source_id) in (${keys})`.execute(longReadsDb)
      : await sql<StoredText>`select r.kind, r.source_id, search_index.title, ${opening} as body
          from search_index_rows r cross join search_index on search_index.rowid = r.id
          where (r.kind, r.source_id) in (values ${keys})`.execute(longReadsDb)
  return new Map(stored.rows.map((row) => [`${row.kind}:${row.sourceId}`, row]))
}

/** Markdown's marks are left out of a passage (articles and descriptions are Markdown): the visitor reads the words. */
function withoutMarkdown(text: string): string {
  return text
    .replace(/\]\([^)\s]*\)?/g, '')
    .replace(/(^|\n)\s*(#+|>+|[-*+]|\d+\.)\s/g, '$1')
    .replace(/[*_`[\]]+/g, '')
}

/** One page of what a visitor finds for `text`, best matches first. */
export async function searchSite(text: string | null, page: number): Promise<SearchPage> {
  const words = searchWords(text)
  if (words.length === 0) return { words, results: [], total: 0, capped: false, page: 1, pageCount: 1 }
  // Every result up to the last page, in order: the page count and the page come from one query.
  const shown = await sql<RankedRow>`select found.kind, found.source_id, ${SLUG} as slug
      from ${visibleSources(matchingRows(words))}
      where ${shownToVisitorsNow()}
      order by found.score, found.kind, found.source_id
      limit ${COUNT_MAX}`.execute(longReadsDb)
  const total = shown.rows.length
  const pageCount = Math.max(1, Math.ceil(total / RESULTS_PER_PAGE))
  const shownPage = Math.min(page, pageCount)
  const onPage = shown.rows.slice((shownPage - 1) * RESULTS_PER_PAGE, shownPage * RESULTS_PER_PAGE)
  const texts = await storedTexts(onPage)
  const results = onPage.flatMap((row): SearchResult[] => {
    const found = texts.get(`${row.kind}:${row.sourceId}`)
    if (!found) return []
    return [
      {
        kind: row.kind,
        href: `${PUBLISHABLE_KINDS[row.kind].publicPath}/${row.slug}`,
        title: markedParts(markedWhole(found.title, words)),
        snippet: markedParts(passage(withoutMarkdown(found.body), words)),
      },
    ]
  })
  return { words, results, total, capped: total >= COUNT_MAX, page: shownPage, pageCount }
}

/** Whether a product's name or description has all the words (the marketplace's own search). */
export function productMatches(text: string): RawBuilder<boolean> {
  const words = searchWords(text)
  if (words.length === 0) return sql<boolean>`1 = 0`
  const found =
    dialectName === 'postgres'
      ? sql`select source_id from search_index where kind = 'product' and document @@ ${tsQuery(words)}`
      : sql`select r.source_id from search_index cross join search_index_rows r on r.id = search_index.rowid
          where search_index match ${ftsQuery(words)} and r.kind = 'product'`
  return sql<boolean>`products.id in (${found})`
}
