/**
 * What the audit log records, declared once: the recording calls, the admin page's "what"
 * filter and its labels all read this list. Not `.server`: the page's filter shows the labels.
 */
export const AUDIT_ACTIONS = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in failed',
  'sign-in.second-step-failed': 'Wrong second-step code',
  'article.created': 'Article posted',
  'article.edited': 'Article edited',
  'article.deleted': 'Article moved to the trash',
  'article.restored': 'Article restored from the trash',
  'article.deleted-for-good': 'Article deleted for good',
  'event.created': 'Event added',
  'event.edited': 'Event edited',
  'event.deleted': 'Event moved to the trash',
  'event.restored': 'Event restored from the trash',
  'event.deleted-for-good': 'Event deleted for good',
  'event.date-removed': 'Date taken out of a series',
  'signup.deleted': 'Sign-up deleted for good',
  'signup.exported': 'Sign-ups downloaded (CSV)',
  'signup.messaged': 'Message sent to those signed up',
  'media.added': 'Photos or videos uploaded',
  'media.edited': 'Photo or video edited',
  'media.deleted': 'Photo or video moved to the trash',
  'media.restored': 'Photo or video restored from the trash',
  'media.deleted-for-good': 'Photo or video deleted for good',
  'product.created': 'Product added',
  'product.edited': 'Product edited',
  'product.deleted': 'Product moved to the trash',
  'product.restored': 'Product restored from the trash',
  'product.deleted-for-good': 'Product deleted for good',
  'message.handled': 'Message marked as handled',
  'message.unhandled': 'Message marked as not handled',
  'message.resent': 'Message sent again',
  'message.deleted': 'Message deleted',
  'page-texts.changed': 'Page texts changed',
  'settings.changed': 'Site settings changed',
  'site.set-up': 'Site set up by its owner',
  'user.created': 'User added',
  'user.role-changed': 'Role changed',
  'user.renamed': 'Name changed',
  'user.password-reset': 'Password reset',
  'user.removed': 'User removed',
  'user.invited': 'Invitation made',
  'user.invitation-withdrawn': 'Invitation withdrawn',
  'user.joined': 'Joined from an invitation',
  'account.password-changed': 'Own password changed',
  'account.name-changed': 'Own name changed',
  'account.email-change-requested': 'Link to use a new e-mail address sent',
  'account.email-changed': 'E-mail address changed from a link',
  'account.device-signed-out': 'Signed out a device',
  'account.signed-out-elsewhere': 'Signed out everywhere else',
  'account.reset-link-sent': 'Password reset link e-mailed',
  'account.password-reset-by-link': 'New password chosen from a link',
  'user.reset-link-created': 'Password reset link made',
  'account.two-step-enabled': 'Two-step sign-in turned on',
  'account.two-step-disabled': 'Two-step sign-in turned off',
  'account.recovery-codes-renewed': 'New recovery codes made',
  'account.passkey-added': 'Passkey added',
  'account.passkey-removed': 'Passkey removed',
  'account.confirmed': 'Password typed again to change how they sign in',
  'account.confirmation-failed': 'Wrong password typed to change how they sign in',
  'user.passkey-removed': "A user's passkey removed",
  'settings.two-step-roles-changed': 'Roles requiring two-step sign-in changed',
  'trash.emptied': 'Trash emptied',
  'sample-content.trashed': 'Sample content moved to the trash',
  'trash.expired': 'Items over 30 days old removed from the trash',
  'preview.link-made': 'Preview link made',
  'subscriber.invited': 'Subscriber invited to confirm',
  'subscribers.imported': 'Subscribers imported',
  'subscribers.exported': 'Subscribers exported',
  'subscriber.deleted': 'Subscriber deleted for good',
  'article.emailed': 'Article e-mailed to subscribers',
  'digest.sent': 'Events digest e-mailed to subscribers',
  'digest.scheduled': 'Events digest schedule changed',
  import: 'Import from the old site',
} as const

export type AuditAction = keyof typeof AUDIT_ACTIONS

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[]

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value)
}

/** What the audit log names as the thing acted on. */
export type AuditTargetType = 'article' | 'event' | 'media' | 'product' | 'message' | 'page' | 'settings' | 'user' | 'subscriber'

/** The client address recorded for what the command-line tools do. */
export const COMMAND_LINE = 'command line'

/** The client address recorded for what the site does by itself (the trash's 30 days running out). */
export const BACKGROUND = 'the site itself'
