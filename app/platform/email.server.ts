import type { SendMailOptions } from 'nodemailer'
import { env } from './env.server'

/** How long the site waits on the mail server (see docs/decisions/006). */
export const SMTP_TIMEOUTS = {
  /** Connecting to the mail server and its greeting. */
  connectMs: 30_000,
  /**
   * Silence allowed while waiting for any reply. RFC 5321 (4.5.3.2) lets a server take up to 10
   * minutes to accept a message after its data: giving up sooner records a failure for a message
   * the server may still deliver, and the retry sends it again.
   */
  replyMs: 10 * 60_000,
}

/** Whether the site can send e-mail at all (`SMTP_URL` is set). */
export function canSendEmail(): boolean {
  return Boolean(env.SMTP_URL)
}

/** Strips CR/LF and other control characters: defence in depth on top of nodemailer's own encoding. */
export function headerSafe(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
}

/**
 * A Message-ID for an e-mail the site sends, stable for the same `localPart`: a copy resent after
 * a crash can be recognised by mail servers.
 */
export function siteMessageId(localPart: string): string {
  const siteHost = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : 'localhost'
  return `<${localPart}@${siteHost}>`
}

/** The mail server refused for good (a 5xx reply: no such mailbox, refused sender); a retry cannot help. */
export function isPermanentSmtpFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode
  return typeof code === 'number' && code >= 500 && code < 600
}

/** Sends one e-mail through `SMTP_URL`, on a connection of its own. */
export async function sendEmail(
  message: SendMailOptions & { signal: AbortSignal },
  timeouts: typeof SMTP_TIMEOUTS = SMTP_TIMEOUTS,
): Promise<void> {
  if (!env.SMTP_URL) throw new Error('SMTP_URL is not set')
  // Loaded with the first e-mail to send, not at every start.
  const { default: nodemailer } = await import('nodemailer')
  const transport = nodemailer.createTransport({
    url: env.SMTP_URL,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.connectMs,
    socketTimeout: timeouts.replyMs,
  })
  try {
    await transport.sendMail(message)
  } finally {
    transport.close()
  }
}
