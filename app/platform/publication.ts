import { z } from 'zod'
import { formatDate, parsePlainDate, parsePlainTime, wallClockIn } from './dates'
import type { SectionName } from './access'
import { text } from './form-schema'

/**
 * Whether an article, gallery item, event or product is public (docs/decisions/027-drafts-schedules-and-trash.md).
 * Browser-safe: the admin forms and lists read the names and labels from here.
 */
/**
 * The four kinds of item that are drafted, scheduled, previewed, trashed and searched, each
 * declared once: its table (Kysely's name and the SQL one), the column that names an item, its
 * public address, its admin section and page, and what the admin calls it. The kind's key is also
 * its type in the audit log and the search.
 */
export const PUBLISHABLE_KINDS = {
  article: {
    table: 'articles',
    sqlTable: 'articles',
    labelColumn: 'title',
    publicPath: '/news',
    section: 'news',
    adminPath: '/admin/news',
    noun: 'Article',
    searchLabel: 'News',
  },
  media: {
    table: 'mediaItems',
    sqlTable: 'media_items',
    labelColumn: 'title',
    publicPath: '/photos',
    section: 'gallery',
    adminPath: '/admin/photos',
    noun: 'Photo or video',
    searchLabel: 'Photos',
  },
  event: {
    table: 'events',
    sqlTable: 'events',
    labelColumn: 'title',
    publicPath: '/calendar',
    section: 'events',
    adminPath: '/admin/events',
    noun: 'Event',
    searchLabel: 'Calendar',
  },
  product: {
    table: 'products',
    sqlTable: 'products',
    labelColumn: 'name',
    publicPath: '/marketplace',
    section: 'products',
    adminPath: '/admin/products',
    noun: 'Product',
    searchLabel: 'Marketplace',
  },
} as const satisfies Record<
  string,
  {
    table: string
    sqlTable: string
    labelColumn: 'title' | 'name'
    publicPath: string
    section: SectionName
    adminPath: string
    noun: string
    searchLabel: string
  }
>

export type PublishableKind = keyof typeof PUBLISHABLE_KINDS
export const PUBLISHABLE_KIND_NAMES = Object.keys(PUBLISHABLE_KINDS) as PublishableKind[]

export const PUBLISHABLE_TABLES = ['articles', 'mediaItems', 'events', 'products'] as const
export type PublishableTable = (typeof PUBLISHABLE_KINDS)[PublishableKind]['table']

/** The kind whose rows live in `table`. */
export function kindOfTable(table: PublishableTable): PublishableKind {
  return PUBLISHABLE_KIND_NAMES.find((kind) => PUBLISHABLE_KINDS[kind].table === table)!
}

export const PUBLICATION_STATES = ['draft', 'scheduled', 'published'] as const
export type PublicationState = (typeof PUBLICATION_STATES)[number]

export const PUBLICATION_STATE_LABELS: Record<PublicationState, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
}

/** The state of a row from its publish time: null is a draft, a time to come is scheduled. */
export function publicationStateOf(publishAt: string | null, now: Date = new Date()): PublicationState {
  if (publishAt === null) return 'draft'
  return publishAt > now.toISOString() ? 'scheduled' : 'published'
}

/** The state named in an admin list's filter (`?state=`), or null for all. */
export function parsePublicationState(value: string | null | undefined): PublicationState | null {
  return PUBLICATION_STATES.find((state) => state === value) ?? null
}

/** An admin list's address with its state filter and page, each left out when it is the default. */
export function adminListAddress(path: string, state: PublicationState | null, page = 1): string {
  const query = new URLSearchParams()
  if (state) query.set('state', state)
  if (page > 1) query.set('page', String(page))
  const search = query.toString()
  return search ? `${path}?${search}` : path
}

export const PUBLISH_CHOICES = ['draft', 'now', 'schedule'] as const
export type PublishChoice = (typeof PUBLISH_CHOICES)[number]

/**
 * The publish part of the four admin forms: draft, publish now, or schedule for a day and time
 * on the site's clock. Spread into each form's schema; `publishAtFor` turns it into a publish time.
 */
export const publishChoiceFields = {
  publish: z.enum(PUBLISH_CHOICES, { error: 'Choose draft, publish now or schedule' }).default('now'),
  publishDate: text().trim().max(10).optional(),
  publishTime: text().trim().max(5).optional(),
}

export type PublishChoiceInput = {
  publish: PublishChoice
  publishDate?: string | undefined
  publishTime?: string | undefined
}

/** Adds the form's errors for a schedule without a real day and time (for a schema's superRefine). */
export function checkPublishChoice(value: PublishChoiceInput, ctx: z.RefinementCtx): void {
  if (value.publish !== 'schedule') return
  if (!parsePlainDate(value.publishDate)) {
    ctx.addIssue({ code: 'custom', path: ['publishDate'], message: 'Enter the day to publish it on' })
  }
  if (!parsePlainTime(value.publishTime)) {
    ctx.addIssue({ code: 'custom', path: ['publishTime'], message: 'Enter the time to publish it at' })
  }
}

/** What a service is told about publishing: a time, null for a draft; left out, a new item is published and an edit keeps it. */
export interface Publishing {
  publishAt?: string | null
}

/** The publish time a new row is written with: published as it is made unless the form said otherwise. */
export function publishAtOnInsert({ publishAt }: Publishing, createdAt: string): string | null {
  return publishAt === undefined ? createdAt : publishAt
}

/** What an edit also sets: an item someone edited is the site's own, no longer demo content to remove. */
export const EDITED = { isSample: 0 } as const

/** The columns an edit writes: the publish time only when the form chose one. */
export function publishAtOnUpdate({ publishAt }: Publishing): { publishAt?: string | null } {
  return publishAt === undefined ? {} : { publishAt }
}

/** A form's values as a service takes them: the publish choice already turned into a time (see `publishingOf`). */
export type WithPublishing<Input> = Omit<Input, keyof typeof publishChoiceFields> & Publishing

export const PUBLISH_CHOICE_OPTIONS: ReadonlyArray<{ value: PublishChoice; label: string }> = [
  // Published first: a new item's form, with nothing chosen, publishes as it always did.
  { value: 'now', label: 'Published' },
  { value: 'draft', label: 'Draft' },
  { value: 'schedule', label: 'Scheduled' },
]

/** The form's values for an item's publish time: its choice, and the day and time on the site's clock when scheduled. */
export function publishChoiceDefaults(
  publishAt: string | null,
  timeZone: string,
  now: Date = new Date(),
): { publish: PublishChoice; publishDate: string; publishTime: string } {
  const state = publicationStateOf(publishAt, now)
  if (state === 'draft') return { publish: 'draft', publishDate: '', publishTime: '' }
  if (state === 'published') return { publish: 'now', publishDate: '', publishTime: '' }
  const { date, time } = wallClockIn(publishAt!, timeZone)
  return { publish: 'schedule', publishDate: date, publishTime: time }
}

/** An item's state for an admin list, with the day and time a scheduled one goes public, on the site's clock. */
export function describePublication(
  publishAt: string | null,
  timeZone: string,
  now: Date = new Date(),
): { state: PublicationState; when: string | null } {
  const state = publicationStateOf(publishAt, now)
  return { state, when: state === 'scheduled' ? formatDate(publishAt!, timeZone, 'dateTime') : null }
}

/** When an item's page last changed for visitors: its last edit, or its publish time if it went public after that. */
export function lastChangeOf({ updatedAt, publishAt }: { updatedAt: string; publishAt: string | null }): string {
  return publishAt !== null && publishAt > updatedAt ? publishAt : updatedAt
}
