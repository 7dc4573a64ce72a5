import type { Route } from './+types/export.csv'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { exportSubscribersCsv } from '~/modules/newsletter/newsletter.queries.server'
import { requireAccess } from '~/platform/auth.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** The subscribers as a CSV file to open in a spreadsheet. Personal data: never kept by any cache. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireAccess({ request, context }, 'subscribers')
  const csv = await exportSubscribersCsv()
  await recordAuditEvent({ by: auditSourceOf(me, context), action: 'subscribers.exported' })
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="subscribers.csv"',
      'Cache-Control': CACHE_PROFILES.personal,
    },
  })
}
