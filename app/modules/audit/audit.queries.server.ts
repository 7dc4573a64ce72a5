import type { AuditEventTable } from '~/platform/db-schema'
import { ADMIN_LIST_PAGE_SIZE, listPageOffset } from '~/platform/admin-list-page.server'
import { db } from '~/platform/db.server'
import type { AuditAction } from './audit.actions'

export interface AuditFilter {
  /** The actor's e-mail: what they did, and failed sign-ins typed with it. */
  actorEmail?: string
  action?: AuditAction
  /** ISO instants: from (inclusive) and before (exclusive). */
  from?: string
  before?: string
}

/** A row as the admin page reads it: its detail parsed. */
export type AuditEventForAdmin = Omit<AuditEventTable, 'detail'> & { detail: Record<string, unknown> | null }

function filtered(filter: AuditFilter) {
  let query = db.selectFrom('auditEvents')
  if (filter.actorEmail !== undefined) query = query.where('actorEmail', '=', filter.actorEmail)
  if (filter.action !== undefined) query = query.where('action', '=', filter.action)
  if (filter.from !== undefined) query = query.where('at', '>=', filter.from)
  if (filter.before !== undefined) query = query.where('at', '<', filter.before)
  return query
}

function parseDetail(detail: string | null): Record<string, unknown> | null {
  if (!detail) return null
  try {
    const value: unknown = JSON.parse(detail)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The entries that pass the filter, newest first, one page at a time. */
export async function listAuditEventsForAdmin(
  filter: AuditFilter,
  options: { page?: number } = {},
): Promise<{ events: AuditEventForAdmin[]; total: number }> {
  const page = Math.max(1, Math.floor(options.page ?? 1))
  const [rows, { total }] = await Promise.all([
    filtered(filter)
      .select([
        'id',
        'at',
        'actorUserId',
        'actorEmail',
        'actorName',
        'action',
        'targetType',
        'targetId',
        'targetLabel',
        'clientAddress',
        'detail',
      ])
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(ADMIN_LIST_PAGE_SIZE)
      .offset(listPageOffset(page))
      .execute(),
    filtered(filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  return {
    events: rows.map((row) => ({ ...row, detail: parseDetail(row.detail) })),
    total: Number(total),
  }
}

/**
 * The people the log names as having done something (signed-in users, removed ones too), by
 * e-mail, for the "who" filter. Failed sign-ins alone do not add a name: anyone can type any e-mail.
 */
export async function listAuditActors(): Promise<{ email: string; name: string }[]> {
  const rows = await db
    .selectFrom('auditEvents')
    .select(['actorEmail as email', (eb) => eb.fn.max('actorName').as('name')])
    .where('actorUserId', 'is not', null)
    .groupBy('actorEmail')
    .orderBy('actorEmail')
    .execute()
  return rows.map((row) => ({ email: row.email, name: String(row.name ?? '') }))
}
