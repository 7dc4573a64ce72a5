import type { DeliveryStatusForAdmin } from './inbox.queries.server'

export const CHANNEL_LABELS: Record<DeliveryStatusForAdmin['channel'], string> = {
  email: 'E-mail',
  forward: 'Form service',
}

/** A date and time as the site's people read it, in the site's time zone. */
export function formatInboxDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso))
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
        detail: delivery.deliveredAt ? formatInboxDate(delivery.deliveredAt, timeZone) : null,
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
            detail: `${attempts} so far; next try ${formatInboxDate(delivery.nextAttemptAt, timeZone)}. ${delivery.lastError ?? ''}`.trim(),
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
