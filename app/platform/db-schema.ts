import type { Role } from './access'

/** Table types as the app sees them (camelCase; CamelCasePlugin maps to snake_case). */

export interface UserTable {
  id: string
  email: string
  name: string
  role: Role
  passwordHash: string
  createdAt: string
  updatedAt: string
}

export interface SessionTable {
  idHash: string
  userId: string
  createdAt: string
  lastSeenAt: string
  expiresAt: string
}

/** Counters of rate-limiter-flexible's database stores (expire: epoch milliseconds). */
export interface RateLimitTable {
  key: string
  points: number
  expire: number | null
}

export interface SettingTable {
  key: string
  value: string
  updatedAt: string
}

/** One editable page's texts as a JSON document (see app/modules/pages). */
export interface PageSectionTable {
  key: string
  content: string
  updatedAt: string
}

export interface ContactMessageTable {
  id: string
  name: string
  email: string
  phone: string | null
  subject: string
  message: string
  createdAt: string
  readAt: string | null
  handledAt: string | null
}

export interface ContactDeliveryTable {
  id: string
  messageId: string
  channel: 'email' | 'forward'
  status: 'pending' | 'sending' | 'sent' | 'failed'
  attempts: number
  nextAttemptAt: string | null
  leaseToken: string | null
  leaseExpiresAt: string | null
  lastError: string | null
  deliveredAt: string | null
  createdAt: string
  updatedAt: string
}

export interface ImageTable {
  id: string
  width: number
  height: number
  alt: string
  /** JSON list of ImageVariant (see platform/media/images.server.ts). */
  variants: string
  createdAt: string
}

export interface ArticleTable {
  id: string
  slug: string
  title: string
  content: string
  imageId: string | null
  createdAt: string
  updatedAt: string
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
  startsAt: string
  endsAt: string | null
  repeat: EventRepeatValue
  repeatUntil: string | null
  repeatCount: number | null
  lastStartsAt: string | null
  createdAt: string
  updatedAt: string
}

/** A resumable upload in progress or finished but not yet used (see platform/media/uploads.server.ts). */
export interface UploadTable {
  id: string
  userId: string
  filename: string
  contentType: string
  /** The declared total size in bytes (Upload-Length). */
  size: number
  createdAt: string
  /** Last time a chunk arrived: uploads idle for a day are removed. */
  updatedAt: string
}

/** A video and its conversion job (see platform/media/videos.server.ts). */
export interface VideoTable {
  id: string
  status: 'processing' | 'ready' | 'failed'
  /** For the admin: why it failed, or why it is shown unconverted. */
  statusText: string | null
  filename: string
  /** The container found by content when it was uploaded. */
  originalFormat: 'mp4' | 'webm' | 'mov'
  videoKey: string | null
  posterImageId: string | null
  width: number | null
  height: number | null
  durationMs: number | null
  attempts: number
  nextAttemptAt: string | null
  leaseToken: string | null
  leaseExpiresAt: string | null
  createdAt: string
  updatedAt: string
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
}

export interface Database {
  users: UserTable
  sessions: SessionTable
  rateLimits: RateLimitTable
  settings: SettingTable
  pageSections: PageSectionTable
  contactMessages: ContactMessageTable
  contactDeliveries: ContactDeliveryTable
  images: ImageTable
  articles: ArticleTable
  events: EventTable
  eventSkippedDates: EventSkippedDateTable
  uploads: UploadTable
  videos: VideoTable
  mediaItems: MediaItemTable
}
