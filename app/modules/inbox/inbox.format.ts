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
            detail: `${attempts} so far; next try ${formatDate(delivery.nextAttemptAt, timeZone, 'dateTime')}. ${delivery.lastError ?? ''}`.trim(),
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
