/**
 * The import from the old site's backend (`npm run import:legacy`): events into the calendar,
 * articles into the news, photos and videos into the gallery, products into the marketplace,
 * each through its module's own insert, with images re-encoded like every upload and videos
 * converted like uploaded ones. See docs/decisions/016-legacy-import.md.
 */
import { FROM_COMMAND_LINE, recordAuditEvent, type AuditSource } from '~/modules/audit/audit.service.server'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { db } from '~/platform/db.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import {
  documentId,
  isDocument,
  MalformedDocumentError,
  readContentDocument,
  readEventDocument,
  type LegacyDocument,
} from './legacy-documents'
import { readProductDocument } from './legacy-products'
import { FileUnavailableError, type LegacySource } from './legacy-source.server'
import { importArticle, importEvent, importMedia, importProduct, isImported } from './legacy-items.server'

export interface LegacyCollections {
  events: string
  /** The shared collection of articles, photos and videos (its name on the old backend is not known). */
  content: string
  marketplace: string
}

export const DEFAULT_COLLECTIONS: LegacyCollections = { events: 'events', content: 'content', marketplace: 'marketplace' }

/** Where the import tells what it does; the command line prints it. */
export interface ImportReporter {
  /** `done` of `total` documents of a collection are through. */
  progress(collection: string, done: number, total: number): void
  /** A line for the person running the import (a skipped document and why, a warning, a summary). */
  line(text: string): void
}

export interface ImportSummary {
  /** Imported by this run. */
  updated: number
  /** Imported before, or malformed. */
  skipped: number
  alreadyImported: number
  malformed: { collection: string; id: string; reason: string }[]
  /** Videos imported by this run, converted in the background. */
  videos: number
  /** The old site's words: 'Migration complete. Updated {n} items, skipped {m} items.' */
  message: string
}

type Outcome =
  { status: 'imported'; warnings: string[]; video?: boolean } | { status: 'already' } | { status: 'malformed'; reason: string }

/** The document can be read but not imported (a file is missing or refused). */
function isItemProblem(error: unknown): error is Error {
  return error instanceof MalformedDocumentError || error instanceof FileUnavailableError || error instanceof MediaRejectedError
}

/**
 * Reads the old site's events, content (articles, photos, videos) and marketplace from `source`
 * and adds what was not imported before. Each document is imported on its own, in one media
 * change and transaction with the note that it was imported: a malformed document, or one
 * whose file cannot be had or is refused, is reported and leaves nothing behind. Throws
 * LegacyBackendError when the source cannot be read at all (what was imported so far stays,
 * and the next run carries on). A finished run is one `import` entry in the audit log, with its
 * counts (by the command line unless `by` says who).
 */
export async function importLegacySite(
  source: LegacySource,
  options: { collections?: Partial<LegacyCollections>; reporter?: ImportReporter; by?: AuditSource } = {},
): Promise<ImportSummary> {
  const collections = { ...DEFAULT_COLLECTIONS, ...options.collections }
  const reporter = options.reporter ?? { progress() {}, line() {} }
  const settings = await getSiteSettings()
  const summary: ImportSummary = { updated: 0, skipped: 0, alreadyImported: 0, malformed: [], videos: 0, message: '' }

  const kinds: {
    collection: string
    importOne: (id: string, doc: LegacyDocument, warnings: string[]) => Promise<{ video?: boolean } | void>
  }[] = [
    {
      collection: collections.events,
      importOne: (id, doc, warnings) =>
        importEvent(collections.events, id, readEventDocument(doc, settings.timeZone, warnings), settings.timeZone),
    },
    {
      collection: collections.content,
      importOne: async (id, doc, warnings) => {
        const record = readContentDocument(doc, warnings)
        if (record.kind === 'article') return importArticle(source, collections.content, id, record)
        return importMedia(source, collections.content, id, record)
      },
    },
    {
      collection: collections.marketplace,
      importOne: (id, doc, warnings) =>
        importProduct(source, collections.marketplace, id, readProductDocument(doc, settings.phoneCountryCode, warnings)),
    },
  ]

  for (const { collection, importOne } of kinds) {
    const documents = await source.listDocuments(collection)
    if (documents === null) {
      reporter.line(`${collection}: not in the export (no ${collection}.json), nothing to import`)
      continue
    }
    const counts = { imported: 0, already: 0, malformed: 0 }
    reporter.progress(collection, 0, documents.length)
    for (const [index, doc] of documents.entries()) {
      const outcome = await importDocument(collection, doc, importOne)
      const label = `${collection}/${isDocument(doc) ? (documentId(doc) ?? `#${index + 1}`) : `#${index + 1}`}`
      if (outcome.status === 'imported') {
        counts.imported++
        if (outcome.video) summary.videos++
        for (const warning of outcome.warnings) reporter.line(`  note ${label}: ${warning}`)
      } else if (outcome.status === 'already') {
        counts.already++
      } else {
        counts.malformed++
        summary.malformed.push({ collection, id: label.slice(collection.length + 1), reason: outcome.reason })
        reporter.line(`  skipped ${label}: ${outcome.reason}`)
      }
      reporter.progress(collection, index + 1, documents.length)
    }
    reporter.line(
      `${collection}: ${counts.imported} imported, ${counts.already} imported before, ${counts.malformed} skipped as malformed`,
    )
    summary.updated += counts.imported
    summary.alreadyImported += counts.already
    summary.skipped += counts.already + counts.malformed
  }
  await recordAuditEvent({
    by: options.by ?? FROM_COMMAND_LINE,
    action: 'import',
    detail: {
      imported: summary.updated,
      importedBefore: summary.alreadyImported,
      malformed: summary.malformed.length,
      videos: summary.videos,
    },
  })
  summary.message = `Migration complete. Updated ${summary.updated} items, skipped ${summary.skipped} items.`
  return summary
}

/**
 * Videos of gallery items imported by this run or an earlier one that are still waiting for their
 * conversion or in it (a running server may have them, or a failed attempt is tried again later).
 */
export async function countImportedVideosInConversion(): Promise<number> {
  const row = await db
    .selectFrom('legacyImports')
    .innerJoin('mediaItems', 'mediaItems.id', 'legacyImports.targetId')
    .innerJoin('videos', 'videos.id', 'mediaItems.videoId')
    .where('legacyImports.targetTable', '=', 'mediaItems')
    .where('videos.status', '=', 'processing')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The run's closing words, and how many imported videos are not on the site yet. */
export function closingMessage(summary: ImportSummary, videosInConversion: number): string {
  if (videosInConversion === 0) return summary.message
  const videos = videosInConversion === 1 ? '1 video is' : `${videosInConversion} videos are`
  return `${summary.message} ${videos} still being converted; ${videosInConversion === 1 ? 'it' : 'they'} will appear when ready.`
}

async function importDocument(
  collection: string,
  doc: unknown,
  importOne: (id: string, doc: LegacyDocument, warnings: string[]) => Promise<{ video?: boolean } | void>,
): Promise<Outcome> {
  if (!isDocument(doc)) return { status: 'malformed', reason: 'not a document (a JSON object)' }
  const id = documentId(doc)
  if (!id) return { status: 'malformed', reason: 'no $id' }
  if (id.length > 200) return { status: 'malformed', reason: '$id is longer than 200 characters' }
  if (await isImported(collection, id)) return { status: 'already' }
  const warnings: string[] = []
  try {
    const result = await importOne(id, doc, warnings)
    return { status: 'imported', warnings, video: result?.video }
  } catch (error) {
    if (error instanceof MediaRejectedError) return { status: 'malformed', reason: `a file was refused: ${error.message}` }
    if (isItemProblem(error)) return { status: 'malformed', reason: error.message }
    // Imported meanwhile by another run: its note made this transaction fail.
    if (await isImported(collection, id)) return { status: 'already' }
    throw error
  }
}
