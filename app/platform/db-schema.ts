import type { Generated } from 'kysely'
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
  /** The browser's User-Agent and the client address when the session began (for "My account"). */
  userAgent: string | null
  clientAddress: string | null
}

/** A one-time link to choose a password: a reset for a user, or an invitation (db/migrations/0019). */
export interface AccountLinkTable {
  id: string
  purpose: 'password-reset' | 'invitation'
  secretHash: string
  userId: string | null
  email: string
  role: UserTable['role'] | null
  /** SHA-256 of the password hash the reset replaces: any password change makes the link useless. */
  passwordFingerprint: string | null
  createdBy: string | null
  createdAt: string
  expiresAt: string
  usedAt: string | null
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
  /** The photograph behind the page's hero (images.id), or null for the plain gradient. */
  heroImageId: string | null
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
  /** 1 for the demo content a new site comes with (shown to administrators only). */
  isSample: Generated<number>
  /** Null: a draft; later than now: scheduled; otherwise published (see platform/publication.server.ts). */
  publishAt: string | null
  /** When it was moved to the trash; null otherwise. */
  trashedAt: string | null
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

/** A resumable upload in progress or finished but not yet used (see platform/media/uploads.server.ts). */
export interface UploadTable {
  id: string
  userId: string
  filename: string
  contentType: string
  /** The declared total size in bytes (Upload-Length). */
  size: number
  /** Bytes that have arrived, as of the last chunk: below `size`, the upload is unfinished. */
  received: number
  createdAt: string
  /** Last time a chunk arrived: idle uploads are removed (unfinished after an hour, finished after a day). */
  updatedAt: string
}

/** An upload started in the last hour, kept for the hourly quota after the upload is gone. */
export interface UploadStartTable {
  uploadId: string
  userId: string
  /** The declared size in bytes. */
  size: number
  startedAt: string
}

/** A process writing to an upload (see platform/media/upload-locks.server.ts). */
export interface UploadLockTable {
  uploadId: string
  /** A lease token: it names the process, so a lock of a killed process is taken over at once. */
  holder: string
  /** A live holder renews it every second; a lock past it is free. */
  expiresAt: string
  /** Another request asked for the upload: the holder ends its request (a client resuming after a dropped connection). */
  wantedAt: string | null
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

/**
 * A record imported from the old site's backend: its collection and document id there, and the
 * row it became here (see modules/legacy-import). A second import skips what is listed.
 */
export interface LegacyImportTable {
  sourceCollection: string
  sourceId: string
  targetTable: 'articles' | 'mediaItems' | 'events' | 'products'
  targetId: string
  importedAt: string
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

/** One thing an administrator did, or a failed sign-in (see app/modules/audit). */
export interface AuditEventTable {
  id: string
  at: string
  /** Null for failed sign-ins and the command line; kept (no foreign key) after the user is removed. */
  actorUserId: string | null
  actorEmail: string
  actorName: string
  action: string
  targetType: string | null
  targetId: string | null
  targetLabel: string | null
  clientAddress: string
  /** A small JSON object, or null. */
  detail: string | null
}

export interface AuthenticatorAppTable {
  userId: string
  secret: string
  confirmedAt: string | null
  lastTimeStep: number | null
  createdAt: string
}

export interface RecoveryCodeTable {
  codeHash: string
  userId: string
  usedAt: string | null
}

export interface PendingSignInTable {
  idHash: string
  userId: string
  purpose: 'second-step' | 'setup'
  redirectTo: string
  expiresAt: string
}

export interface PasskeyTable {
  id: string
  userId: string
  name: string
  publicKey: string
  counter: number
  transports: string
  createdAt: string
  lastUsedAt: string | null
}

export interface PasskeyChallengeTable {
  challenge: string
  userId: string | null
  expiresAt: string
}

export interface Database {
  users: UserTable
  sessions: SessionTable
  accountLinks: AccountLinkTable
  previewLinks: PreviewLinkTable
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
  uploadStarts: UploadStartTable
  uploadLocks: UploadLockTable
  videos: VideoTable
  mediaItems: MediaItemTable
  products: ProductTable
  productImages: ProductImageTable
  legacyImports: LegacyImportTable
  auditEvents: AuditEventTable
  authenticatorApps: AuthenticatorAppTable
  recoveryCodes: RecoveryCodeTable
  pendingSignIns: PendingSignInTable
  passkeys: PasskeyTable
  passkeyChallenges: PasskeyChallengeTable
}
