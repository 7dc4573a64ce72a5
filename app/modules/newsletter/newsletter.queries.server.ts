import { ADMIN_LIST_PAGE_SIZE, listPageOffset } from '~/platform/admin-list-page.server'
import { db } from '~/platform/db.server'
import type { SubscriberTable } from '~/platform/db-schema'
import { SUBSCRIBER_STATE_LABELS, TOPIC_LABELS, topicsOf } from './newsletter.schema'
import { toCsv } from '~/platform/csv'

export type SubscriberForAdmin = Pick<
  SubscriberTable,
  'id' | 'email' | 'firstName' | 'state' | 'createdAt' | 'confirmedAt' | 'unsubscribedAt'
> & { topics: string[] }

const ADMIN_COLUMNS = ['id', 'email', 'firstName', 'topics', 'state', 'createdAt', 'confirmedAt', 'unsubscribedAt'] as const

function forAdmin(row: Pick<SubscriberTable, (typeof ADMIN_COLUMNS)[number]>): SubscriberForAdmin {
  return { ...row, topics: topicsOf(row).map((topic) => TOPIC_LABELS[topic]) }
}

/** One page of the list, newest first, and how many there are in each state. */
export async function listSubscribersForAdmin({ page }: { page: number }) {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom('subscribers')
      .select(ADMIN_COLUMNS)
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .limit(ADMIN_LIST_PAGE_SIZE)
      .offset(listPageOffset(page))
      .execute(),
    db
      .selectFrom('subscribers')
      .select(['state', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('state')
      .execute(),
  ])
  const byState = { pending: 0, confirmed: 0, unsubscribed: 0 }
  for (const { state, count } of counts) byState[state] += Number(count)
  const total = byState.pending + byState.confirmed + byState.unsubscribed
  return {
    subscribers: rows.map(forAdmin),
    counts: byState,
    total,
  }
}

/** The whole list as CSV (bounded by SUBSCRIBERS_MAX), for a spreadsheet. */
export async function exportSubscribersCsv(): Promise<string> {
  const rows = await db.selectFrom('subscribers').select(ADMIN_COLUMNS).orderBy('createdAt').orderBy('id').execute()
  return toCsv([
    ['email', 'first name', 'topics', 'state', 'signed up', 'confirmed', 'unsubscribed'],
    ...rows.map((row) => [
      row.email,
      row.firstName,
      topicsOf(row).join(' '),
      SUBSCRIBER_STATE_LABELS[row.state],
      row.createdAt,
      row.confirmedAt ?? '',
      row.unsubscribedAt ?? '',
    ]),
  ])
}
