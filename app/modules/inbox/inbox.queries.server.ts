import { ADMIN_LIST_PAGE_SIZE, listPageOffset } from '~/platform/admin-list-page.server'
import { db } from '~/platform/db.server'
import type { ContactDeliveryTable } from '~/platform/db-schema'

export type DeliveryStatusForAdmin = Pick<
  ContactDeliveryTable,
  'channel' | 'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'deliveredAt'
>

export interface ContactMessageSummary {
  id: string
  name: string
  email: string
  subject: string
  preview: string
  createdAt: string
  readAt: string | null
  handledAt: string | null
  deliveries: DeliveryStatusForAdmin[]
}

/** Newest first, one page at a time, with each message's delivery status per channel. */
export async function listContactMessagesForAdmin(
  options: { page?: number } = {},
): Promise<{ messages: ContactMessageSummary[]; total: number }> {
  const page = Math.max(1, Math.floor(options.page ?? 1))
  const [rows, { total }] = await Promise.all([
    db
      .selectFrom('contactMessages')
      .select(['id', 'name', 'email', 'subject', 'message', 'createdAt', 'readAt', 'handledAt'])
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(ADMIN_LIST_PAGE_SIZE)
      .offset(listPageOffset(page))
      .execute(),
    db
      .selectFrom('contactMessages')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  const deliveries = await listDeliveries(rows.map((r) => r.id))
  const messages = rows.map(({ message, ...row }) => ({
    ...row,
    preview: message.length > 140 ? `${message.slice(0, 140).trimEnd()}…` : message,
    deliveries: deliveries.get(row.id) ?? [],
  }))
  return { messages, total: Number(total) }
}

export async function countUnreadContactMessages(): Promise<number> {
  const { count } = await db
    .selectFrom('contactMessages')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('readAt', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(count)
}

export async function getContactMessageForAdmin(id: string) {
  const message = await db
    .selectFrom('contactMessages')
    .select(['id', 'name', 'email', 'phone', 'subject', 'message', 'createdAt', 'readAt', 'handledAt'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!message) return null
  const deliveries = await listDeliveries([id])
  return { ...message, deliveries: deliveries.get(id) ?? [] }
}

async function listDeliveries(messageIds: string[]): Promise<Map<string, DeliveryStatusForAdmin[]>> {
  const byMessage = new Map<string, DeliveryStatusForAdmin[]>()
  if (messageIds.length === 0) return byMessage
  const rows = await db
    .selectFrom('contactDeliveries')
    .select(['messageId', 'channel', 'status', 'attempts', 'nextAttemptAt', 'lastError', 'deliveredAt'])
    .where('messageId', 'in', messageIds)
    .orderBy('channel')
    .execute()
  for (const { messageId, ...delivery } of rows) {
    byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), delivery])
  }
  return byMessage
}
