import { data } from 'react-router'
import type { Route } from './+types/signups-csv'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { signupsCsv } from '~/modules/events/signups.csv'
import { getEventNameForAdmin, listSignupsForAdmin } from '~/modules/events/signups.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { parsePlainDate } from '~/platform/dates'
import { declareQueryParams } from '~/platform/query-params'
import { CACHE_PROFILES } from '~/platform/http-caching'

/** Who signed up for one date, as a spreadsheet file. Downloading personal data is recorded in the audit log. */

export const queryParams = declareQueryParams('date')

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'signups')
  const date = parsePlainDate(queryParams.read(request).date)
  const event = await getEventNameForAdmin(params.id)
  if (!event || !date) throw data('Choose an event and a date', { status: 404 })
  const [rows, { timeZone }] = await Promise.all([listSignupsForAdmin(event.id, date), siteSettingsFor(context)])
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'signup.exported',
    target: { type: 'event', id: event.id, label: `${event.title}, ${date}` },
  })
  return new Response(signupsCsv(rows, timeZone), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      // The slug is made of a-z, 0-9 and '-' only.
      'Content-Disposition': `attachment; filename="signups-${event.slug}-${date}.csv"`,
      'Cache-Control': CACHE_PROFILES.personal,
    },
  })
}
