/**
 * Reading the old site's documents (an Appwrite-like backend: `$id`, `$createdAt`, fields as the
 * old pages wrote them; see /docs/decisions/016-legacy-import.md). Pure: no database, no files.
 * Each reader answers what the document becomes here, or why it cannot be imported.
 */
import { EVENT_TYPE_OPTIONS } from '~/modules/events/events.schema'
import { DEFAULT_MEDIA_CATEGORY, isMediaCategory, type MediaCategory } from '~/modules/gallery/media-categories'
import type { EventTypeValue } from '~/platform/db-schema'
import { parsePlainDate, wallClockIn, type PlainDate, type PlainTime } from '~/platform/dates'

/** Gallery categories of the old site: an untyped record in one of them was a photo ('Fix Content Types'). */
const PHOTO_CATEGORIES = ['Events', 'Education', 'Health', 'Community', 'Projects']

export type LegacyDocument = Record<string, unknown>

/** A file of the old backend: a bucket (when known) and the file's id there. */
export interface FileRef {
  bucket: string | null
  fileId: string
}

/** The document cannot be imported, for this reason (shown to whoever runs the import). */
export class MalformedDocumentError extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'MalformedDocumentError'
  }
}

export function isDocument(value: unknown): value is LegacyDocument {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The document's `$id`, if it has a usable one. */
export function documentId(doc: LegacyDocument): string | null {
  const id = doc.$id
  return typeof id === 'string' && id.trim() !== '' ? id.trim() : null
}

/** A text field: trimmed, without U+0000 (PostgreSQL cannot store it); '' when missing or not text. */
export function textOf(doc: LegacyDocument, ...keys: string[]): string {
  for (const key of keys) {
    const value = doc[key]
    if (typeof value === 'string' && value.trim() !== '') return value.replaceAll('\u0000', '').trim()
  }
  return ''
}

function required(doc: LegacyDocument, label: string, max: number, ...keys: string[]): string {
  const value = textOf(doc, ...keys)
  if (value === '') throw new MalformedDocumentError(`no ${label}`)
  if (value.length > max) throw new MalformedDocumentError(`${label} is longer than ${max} characters`)
  return value
}

function optional(doc: LegacyDocument, label: string, max: number, ...keys: string[]): string {
  const value = textOf(doc, ...keys)
  if (value.length > max) throw new MalformedDocumentError(`${label} is longer than ${max} characters`)
  return value
}

/** When the record was made on the old site: `$createdAt`, else its own `createdAt`, else now. */
export function createdAtOf(doc: LegacyDocument, now = new Date()): string {
  for (const key of ['$createdAt', 'createdAt']) {
    const value = doc[key]
    if (typeof value !== 'string' && typeof value !== 'number') continue
    const time = new Date(value)
    if (!Number.isNaN(time.getTime())) return time.toISOString()
  }
  return now.toISOString()
}

/**
 * A title ending in three dots marked a featured photo or video on the old site. Phones often turn
 * three typed dots into the one character '…' (U+2026): it means the same.
 */
export function isFeaturedTitle(title: string): boolean {
  return title.endsWith('...') || title.endsWith('…')
}

const FILE_VIEW_PATH = /\/storage\/buckets\/([^/]+)\/files\/([^/]+)\/view\/?$/
const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/

/** A bucket or file id that is safe as a file name and in a URL path. */
export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id)
}

/**
 * The bucket and file of a file view URL (`…/storage/buckets/{bucket}/files/{fileId}/view`), the
 * way the old site stored its image URLs; throws MalformedDocumentError for anything else.
 */
export function fileRefOfUrl(url: string, field: string): FileRef {
  let pathname: string
  try {
    pathname = new URL(url).pathname
  } catch {
    throw new MalformedDocumentError(`${field} is not a URL`)
  }
  const match = FILE_VIEW_PATH.exec(pathname)
  const [bucket, fileId] = match ? [decodeURIComponent(match[1]), decodeURIComponent(match[2])] : []
  if (!bucket || !fileId || !isSafeId(bucket) || !isSafeId(fileId)) {
    throw new MalformedDocumentError(`${field} is not a file view URL of the old backend (…/files/{id}/view)`)
  }
  return { bucket, fileId }
}

/** The file of an article, photo or video: a view URL if the document has one, else a bare file id. */
function contentFileOf(doc: LegacyDocument): FileRef | null {
  for (const field of ['videoUrl', 'fileUrl', 'imageUrl']) {
    const url = textOf(doc, field)
    if (url) return fileRefOfUrl(url, field)
  }
  for (const field of ['videoId', 'fileId', 'imageId']) {
    const fileId = textOf(doc, field)
    if (!fileId) continue
    if (!isSafeId(fileId)) throw new MalformedDocumentError(`${field} is not a file id`)
    return { bucket: null, fileId }
  }
  return null
}

export type ContentType = 'article' | 'photo' | 'video'

/**
 * The old 'Fix Content Types' rule for a record without a type: a photo if its category is one of
 * the gallery's, otherwise an article. A record the rule makes a photo that has no file at all is
 * kept as an article, as migration 0008 did (decision 014): there is no picture to show.
 */
export function contentTypeOf(doc: LegacyDocument, hasFile: boolean): ContentType {
  const type = textOf(doc, 'type')
  if (type === 'article' || type === 'photo' || type === 'video') return type
  if (type !== '') throw new MalformedDocumentError(`unknown type '${type.slice(0, 40)}'`)
  const category = textOf(doc, 'category')
  return PHOTO_CATEGORIES.includes(category) && hasFile ? 'photo' : 'article'
}

export interface LegacyArticle {
  kind: 'article'
  title: string
  content: string
  image: FileRef | null
  createdAt: string
}

export interface LegacyMedia {
  kind: 'media'
  /** What the old record said; the file's content decides between photo and video. */
  type: 'photo' | 'video'
  title: string
  description: string
  category: MediaCategory
  featured: boolean
  file: FileRef
  createdAt: string
}

/** An article, photo or video of the shared content collection. */
export function readContentDocument(doc: LegacyDocument, warnings: string[]): LegacyArticle | LegacyMedia {
  const file = contentFileOf(doc)
  const type = contentTypeOf(doc, file !== null)
  const title = required(doc, 'title', 200, 'title')
  const createdAt = createdAtOf(doc)
  if (type === 'article') {
    const content = required(doc, 'content', 50_000, 'content', 'description')
    return { kind: 'article', title, content, image: file, createdAt }
  }
  if (!file) throw new MalformedDocumentError(`a ${type} without a file (no imageUrl or imageId)`)
  const category = textOf(doc, 'category')
  if (category && !isMediaCategory(category)) {
    warnings.push(`category '${category.slice(0, 40)}' is not a gallery category; filed under ${DEFAULT_MEDIA_CATEGORY}`)
  }
  return {
    kind: 'media',
    type,
    title,
    description: optional(doc, 'description', 5_000, 'content', 'description'),
    category: isMediaCategory(category) ? category : DEFAULT_MEDIA_CATEGORY,
    featured: isFeaturedTitle(title),
    file,
    createdAt,
  }
}

export interface LegacyEvent {
  title: string
  description: string
  location: string
  type: EventTypeValue
  startDate: PlainDate
  /** None: an all-day event (the old site's form asked for a date only). */
  startTime?: PlainTime
  endDate?: PlainDate
  endTime?: PlainTime
  createdAt: string
}

/** A stored date (an ISO timestamp, or a bare date) as the site's local day and time (none for a bare date). */
function localDateTime(value: string, timeZone: string): { date: PlainDate; time: PlainTime | null } | null {
  const bare = parsePlainDate(value)
  if (bare) return { date: bare, time: null }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) return null
  const local = wallClockIn(value, timeZone)
  return parsePlainDate(local.date) ? local : null
}

/** An event of the `events` collection, as a one-off event in the site's time zone. */
export function readEventDocument(doc: LegacyDocument, timeZone: string, warnings: string[]): LegacyEvent {
  const title = required(doc, 'title', 200, 'title')
  const startText = textOf(doc, 'startDate', 'start', 'date')
  if (!startText) throw new MalformedDocumentError('no start date')
  const start = localDateTime(startText, timeZone)
  if (!start) throw new MalformedDocumentError(`start date '${startText.slice(0, 40)}' is not a date`)
  const event: LegacyEvent = {
    title,
    description: optional(doc, 'description', 5_000, 'description', 'content'),
    location: optional(doc, 'location', 200, 'location'),
    type: 'event',
    startDate: start.date,
    ...(start.time ? { startTime: start.time } : {}),
    createdAt: createdAtOf(doc),
  }
  const type = textOf(doc, 'type')
  // The old site showed an unknown or missing type as 'Event'.
  if (EVENT_TYPE_OPTIONS.some((option) => option.value === type)) event.type = type as EventTypeValue
  else if (type) warnings.push(`type '${type.slice(0, 40)}' is unknown; shown as Event`)
  const endText = textOf(doc, 'endDate', 'end')
  if (endText) {
    const end = localDateTime(endText, timeZone)
    if (!end) warnings.push(`end date '${endText.slice(0, 40)}' is not a date; left out`)
    else if (`${end.date}T${end.time ?? '00:00'}` < `${start.date}T${start.time ?? '00:00'}`) {
      warnings.push('the end is before the start; left out')
    } else if (!start.time) {
      // An all-day event runs to the end's day.
      if (end.date > start.date) event.endDate = end.date
    } else Object.assign(event, { endDate: end.date, endTime: end.time ?? '00:00' })
  }
  return event
}
