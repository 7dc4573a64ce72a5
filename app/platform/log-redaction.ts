/**
 * What may be logged of texts that can hold personal data or secrets: logs are kept longer and
 * read more widely than the database rows they describe.
 */

/** Anything shaped like local@domain, also inside <...>, as mail servers' replies quote it. */
const EMAIL_ADDRESS = /[^\s<>()"',;:@]+@[^\s<>()"',;:@]+/g

/** Hides e-mail addresses in an error's text (the full text stays in the row's `last_error`, for administrators). */
export function redactEmailAddresses(text: string): string {
  return text.replace(EMAIL_ADDRESS, '[address]')
}

/** Paths whose next segment is a secret: the link alone gives access to something. */
const SECRET_SEGMENT =
  /^(\/(?:subscribe\/(?:confirm|unsubscribe|topics)|signups|reset-password|account\/email|join|preview))\/[^/]+/

/** A request's path fit for a log: without its query and with any secret segment replaced. */
export function pathForLog(url: string): string {
  let path: string
  try {
    path = new URL(url, 'http://x').pathname
  } catch {
    return '[unreadable]'
  }
  return path.replace(SECRET_SEGMENT, '$1/[secret]')
}
