/** Tables of what happened: contact messages and their deliveries, imports, the audit log, sign-ups for events. */

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

/** Someone who asked for e-mail updates (app/modules/newsletter). */
export interface SubscriberTable {
  id: string
  /** Lower-case, unique. */
  email: string
  firstName: string
  /** Comma-separated topics. */
  topics: string
  /** `pending`: asked or invited, not confirmed yet: only the confirmation is ever sent. */
  state: 'pending' | 'confirmed' | 'unsubscribed'
  /** SHA-256 of the confirmation link's secret; kept once confirmed (a second press says so), null once unsubscribed. */
  confirmSecretHash: string | null
  /** The secret of the unsubscribe and topics links: kept, since every e-mail carries it. */
  manageSecret: string
  createdAt: string
  /** When the current invitation was sent (reset by each one); it expires 7 days later. */
  pendingSince: string | null
  confirmedAt: string | null
  unsubscribedAt: string | null
  updatedAt: string
}

/** One e-mail to one person, waiting in or sent from the outgoing-mail queue (app/modules/outgoing-mail). */
export interface OutgoingEmailTable {
  id: string
  /** Lower-case. */
  toAddress: string
  subject: string
  html: string
  textBody: string
  /** JSON object of header name to value, or null. */
  headers: string | null
  /** JSON array of { filename, contentType, content }, or null. */
  attachments: string | null
  batchId: string | null
  dedupeKey: string | null
  /** Who caused it: visitor mail has its own, smaller quota of waiting e-mails. */
  origin: 'visitor' | 'admin'
  /** `sending`: handed to the mail server; a crash then leaves it to be marked failed, never resent. */
  status: 'waiting' | 'sending' | 'sent' | 'failed'
  attempts: number
  nextAttemptAt: string | null
  leaseToken: string | null
  leaseExpiresAt: string | null
  lastError: string | null
  sentAt: string | null
  createdAt: string
  updatedAt: string
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

/** How an event takes sign-ups; its row exists while the event takes them (see modules/events/signups). */
export interface EventSignupFormTable {
  eventId: string
  /** Places per date (people); null: no limit. */
  placeLimit: number | null
  contact: 'email' | 'whatsapp' | 'either'
  asksPartySize: number
  closesHoursBefore: number
}

/** A person signed up for one date of an event: personal data, seen by administrators only. */
export interface EventSignupTable {
  id: string
  eventId: string
  /** The occurrence's day in the site's time zone. */
  date: string
  name: string
  email: string | null
  whatsapp: string | null
  partySize: number
  status: 'confirmed' | 'waiting'
  cancelToken: string
  /** The site's address the person signed up at, for the links of later e-mails. */
  siteOrigin: string
  createdAt: string
  promotedAt: string | null
  reminderQueuedAt: string | null
}

/** A sign-up repeated with a contact already on its date: answered like a new one, holding no place (db/migrations/0030). */
export interface RepeatedSignupTable {
  id: string
  eventId: string
  date: string
  name: string
  partySize: number
  status: EventSignupTable['status']
  cancelToken: string
  createdAt: string
}
