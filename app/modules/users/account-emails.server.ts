import { getSiteSender, getSiteSettings } from '~/modules/settings/settings.queries.server'
import { formatDate } from '~/platform/dates'
import { canSendEmail, headerSafe, sendEmail } from '~/platform/email.server'
import { logger } from '~/platform/logger.server'
import type { SessionDevice } from '~/platform/session.server'
import { describeDevice } from './devices.server'

const SEND_TIMEOUT_MS = 5 * 60_000

/** E-mails about accounts being sent in the background; closing the server waits for them. */
const sending = new Set<Promise<void>>()

/**
 * Runs `work` (a lookup and an e-mail) after the request that asked for it has been answered:
 * the answer takes the same time whatever the work finds, and a slow mail server keeps no one
 * waiting. A failure is logged.
 */
export function sendInBackground(what: string, work: () => Promise<void>): void {
  const running = work()
    .catch((error: unknown) => logger.error({ err: error }, `${what} could not be sent`))
    .finally(() => sending.delete(running))
  sending.add(running)
}

export async function accountEmailsSent(): Promise<void> {
  await Promise.all([...sending])
}

/** An e-mail from the site to one person, in plain text. */
export async function emailPerson(to: { name: string; address: string }, subject: string, lines: string[]): Promise<void> {
  const from = await getSiteSender()
  if (!from) throw new Error('Neither SMTP_FROM nor the site e-mail address is set')
  await sendEmail({
    from,
    to: { name: headerSafe(to.name), address: to.address },
    subject: headerSafe(subject),
    text: lines.join('\n'),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  })
}

/**
 * Tells a person, in the background, that how their account signs in has just changed (a passkey
 * added, two-step sign-in turned off), so that a change they did not make does not go unnoticed.
 */
export function tellOfSignInChange(
  user: { name: string; email: string },
  change: string,
  where: { device: SessionDevice; siteOrigin: string },
): void {
  if (!canSendEmail()) return
  const at = new Date()
  sendInBackground('a sign-in change e-mail', async () => {
    const { organisationName, timeZone } = await getSiteSettings()
    await emailPerson({ name: user.name, address: user.email }, `How you sign in to ${organisationName} has changed`, [
      `Hello ${user.name},`,
      '',
      `${change} on your account on the ${organisationName} website, on ${formatDate(at.toISOString(), timeZone, 'dateTime')}, from ${describeDevice(where.device.userAgent)}.`,
      '',
      'If this was you, there is nothing to do.',
      '',
      'If it was not you, choose a new password now: that signs out every device and removes every passkey.',
      new URL('/forgot-password', where.siteOrigin).href,
    ])
  })
}
