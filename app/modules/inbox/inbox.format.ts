import type { DeliveryStatusForAdmin } from './inbox.queries.server'
import { formatDate } from '~/platform/dates'

export const CHANNEL_LABELS: Record<DeliveryStatusForAdmin['channel'], string> = {
  email: 'E-mail',
  forward: 'Form service',
}

export type DeliveryTone = 'success' | 'waiting' | 'danger'

/** One line per channel for the inbox: where the message went, or why it has not gone yet. */
export function describeDelivery(
  delivery: DeliveryStatusForAdmin,
  timeZone: string,
): { channel: string; summary: string; detail: string | null; tone: DeliveryTone } {
  const channel = CHANNEL_LABELS[delivery.channel]
  const attempts = `${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`
  switch (delivery.status) {
    case 'sent':
      return {
        channel,
        summary: 'Sent',
        detail: delivery.deliveredAt ? formatDate(delivery.deliveredAt, timeZone, 'dateTime') : null,
        tone: 'success',
      }
    case 'pending':
      return { channel, summary: 'Waiting to send', detail: null, tone: 'waiting' }
    case 'sending':
      return { channel, summary: 'Sending', detail: null, tone: 'waiting' }
    case 'failed':
      return delivery.nextAttemptAt
        ? {
            channel,
            summary: 'Failed, will retry',
            detail:
              `${attempts} so far; next try ${formatDate(delivery.nextAttemptAt, timeZone, 'dateTime')}. ${delivery.lastError ?? ''}`.trim(),
            tone: 'danger',
          }
        : {
            channel,
            summary: 'Failed',
            detail: `Gave up after ${attempts}. ${delivery.lastError ?? ''}`.trim(),
            tone: 'danger',
          }
  }
}

export interface NewMessageNotice {
  /** Whether anyone hears of a new message other than by opening the inbox. */
  notified: boolean
  text: string
}

/**
 * What happens to a new message besides being kept in the inbox, in plain words for the
 * volunteers (never the names of the server's settings): `channels` as the server is configured,
 * `email` the address in the site settings that e-mails go to.
 */
export function describeNewMessageNotice(
  channels: ReadonlyArray<DeliveryStatusForAdmin['channel']>,
  email: string,
): NewMessageNotice {
  const emailed = channels.includes('email')
  const forwarded = channels.includes('forward')
  if (emailed && forwarded) {
    return { notified: true, text: `New messages are also sent by e-mail to ${email} and passed on to a form service.` }
  }
  if (emailed) return { notified: true, text: `New messages are also sent by e-mail to ${email}.` }
  if (forwarded) return { notified: true, text: 'New messages are also passed on to a form service.' }
  return {
    notified: false,
    text: 'New messages are only kept here: nobody is told when one arrives. Ask whoever runs the site to set up e-mail.',
  }
}
