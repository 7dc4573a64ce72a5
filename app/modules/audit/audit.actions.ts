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
  'article.deleted': 'Article deleted',
  'event.created': 'Event added',
  'event.edited': 'Event edited',
  'event.deleted': 'Event deleted',
  'event.date-removed': 'Date taken out of a series',
  'media.added': 'Photos or videos uploaded',
  'media.edited': 'Photo or video edited',
  'media.deleted': 'Photo or video deleted',
  'product.created': 'Product added',
  'product.edited': 'Product edited',
  'product.deleted': 'Product deleted',
  'message.handled': 'Message marked as handled',
  'message.unhandled': 'Message marked as not handled',
  'message.resent': 'Message sent again',
  'message.deleted': 'Message deleted',
  'page-texts.changed': 'Page texts changed',
  'settings.changed': 'Site settings changed',
  'user.created': 'User added',
  'user.role-changed': 'Role changed',
  'user.password-reset': 'Password reset',
  'user.removed': 'User removed',
  'user.invited': 'Invitation made',
  'user.invitation-withdrawn': 'Invitation withdrawn',
  'user.joined': 'Joined from an invitation',
  'account.password-changed': 'Own password changed',
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
  'settings.two-step-roles-changed': 'Roles requiring two-step sign-in changed',
  'preview.link-made': 'Preview link made',
  import: 'Import from the old site',
} as const

export type AuditAction = keyof typeof AUDIT_ACTIONS

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[]

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value)
}

/** What the audit log names as the thing acted on. */
export type AuditTargetType = 'article' | 'event' | 'media' | 'product' | 'message' | 'page' | 'settings' | 'user'

/** The client address recorded for what the command-line tools do. */
export const COMMAND_LINE = 'command line'
