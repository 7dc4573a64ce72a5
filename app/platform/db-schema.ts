// The database as the app sees it: one interface per table (camelCase; CamelCasePlugin maps to
// snake_case), grouped by what they hold.
import type {
  UserTable,
  SessionTable,
  AccountLinkTable,
  RateLimitTable,
  AuthenticatorAppTable,
  RecoveryCodeTable,
  PendingSignInTable,
  PasskeyTable,
  PasskeyChallengeTable,
} from './db-schema/accounts'
import type {
  SettingTable,
  PageSectionTable,
  ArticleTable,
  EventTable,
  EventSkippedDateTable,
  MediaItemTable,
  ProductTable,
  ProductImageTable,
  PreviewLinkTable,
} from './db-schema/content'
import type { ImageTable, UploadTable, UploadStartTable, UploadLockTable, VideoTable } from './db-schema/media'
import type {
  ContactMessageTable,
  ContactDeliveryTable,
  OutgoingEmailTable,
  SubscriberTable,
  LegacyImportTable,
  AuditEventTable,
  EventSignupFormTable,
  EventSignupTable,
  RepeatedSignupTable,
} from './db-schema/records'

export type * from './db-schema/accounts'
export type * from './db-schema/content'
export type * from './db-schema/media'
export type * from './db-schema/records'

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
  outgoingEmails: OutgoingEmailTable
  subscribers: SubscriberTable
  images: ImageTable
  articles: ArticleTable
  events: EventTable
  eventSkippedDates: EventSkippedDateTable
  eventSignupForms: EventSignupFormTable
  eventSignups: EventSignupTable
  repeatedSignups: RepeatedSignupTable
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
