import type { Generated } from 'kysely'

/** Tables of what the site shows: settings, page texts, articles, events, gallery items, products. */

export interface SettingTable {
  key: string
  value: string
  updatedAt: string
}

/** One editable page's texts as a JSON document (see app/modules/pages). */
export interface PageSectionTable {
  key: string
  content: string
  /** The photograph behind the page's hero (images.id), or null for the plain gradient. */
  heroImageId: string | null
  updatedAt: string
}

export interface ArticleTable {
  id: string
  slug: string
  title: string
  content: string
  imageId: string | null
  createdAt: string
  updatedAt: string
  /** 1 for the demo content a new site comes with (shown to administrators only). */
  isSample: Generated<number>
  /** Null: a draft; later than now: scheduled; otherwise published (see platform/publication.server.ts). */
  publishAt: string | null
  /** When it was moved to the trash; null otherwise. */
  trashedAt: string | null
  /** 1: e-mailed to the subscribers of News once public, by whichever process sees it first. */
  emailToSubscribers: Generated<number>
  /** When it was queued for the subscribers; set once, so it is never sent twice. */
  emailedAt: string | null
}

export type EventTypeValue = 'general' | 'meeting' | 'celebration' | 'deadline' | 'fundraiser' | 'event'

export type EventRepeatValue = 'none' | 'weekly' | 'monthly-date' | 'monthly-weekday' | 'monthly-last-weekday'

export interface EventTable {
  id: string
  slug: string
  title: string
  description: string
  location: string
  type: EventTypeValue
  /** 1: a date and no time; starts_at is then the start of the day, ends_at the start of the last day. */
  allDay: number
  startsAt: string
  endsAt: string | null
  repeat: EventRepeatValue
  repeatUntil: string | null
  repeatCount: number | null
  lastStartsAt: string | null
  /** 1: demo content, marked for administrators (never shown to visitors). */
  isSample: Generated<number>
  createdAt: string
  updatedAt: string
  /** Null: a draft; later than now: scheduled; otherwise published (see platform/publication.server.ts). */
  publishAt: string | null
  /** When it was moved to the trash; null otherwise. */
  trashedAt: string | null
}

export interface EventSkippedDateTable {
  eventId: string
  date: string
}

/** A photo or video of the gallery (see modules/gallery). */
export interface MediaItemTable {
  id: string
  slug: string
  kind: 'photo' | 'video'
  title: string
  description: string
  category: string
  /** 1 when the admin marked it for the home page's featured moments. */
  featured: number
  /** A photo's image. */
  imageId: string | null
  /** A video's video (its poster comes with it). */
  videoId: string | null
  createdAt: string
  updatedAt: string
  /** 1 for the demo content a new site comes with (shown to administrators only). */
  isSample: Generated<number>
  /** Null: a draft; later than now: scheduled; otherwise published (see platform/publication.server.ts). */
  publishAt: string | null
  /** When it was moved to the trash; null otherwise. */
  trashedAt: string | null
}

/** A product of the youth marketplace (see modules/marketplace). */
export interface ProductTable {
  id: string
  slug: string
  name: string
  description: string
  category: string
  /** Whole cents; null when the product has no price. */
  priceCents: number | null
  /** A first name or business name only ('' when not given). */
  seller: string
  facebookLink: string
  instagramLink: string
  /** International digits ('' when not given). */
  whatsappNumber: string
  createdAt: string
  updatedAt: string
  /** 1 for the demo content a new site comes with (shown to administrators only). */
  isSample: Generated<number>
  /** Null: a draft; later than now: scheduled; otherwise published (see platform/publication.server.ts). */
  publishAt: string | null
  /** When it was moved to the trash; null otherwise. */
  trashedAt: string | null
}

/** A product's images, in carousel order. */
export interface ProductImageTable {
  productId: string
  position: number
  imageId: string
}

/** A link that shows a draft or scheduled item to someone without an account (see modules/previews). */
export interface PreviewLinkTable {
  id: string
  secretHash: string
  itemTable: 'articles' | 'mediaItems' | 'events' | 'products'
  itemId: string
  createdBy: string | null
  createdAt: string
  expiresAt: string
}
