import { Form, Link } from 'react-router'
import { adminListTitle } from '~/components/admin-list-pagination'
import type { Route } from './+types/audit'
import { AdminTable } from '~/components/admin-table'
import { Pagination } from '~/components/pagination'
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS, COMMAND_LINE, isAuditAction, type AuditAction } from '~/modules/audit/audit.actions'
import { listAuditActors, listAuditEventsForAdmin, type AuditFilter } from '~/modules/audit/audit.queries.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { addDays, formatDate, instantIn, parsePlainDate } from '~/platform/dates'
import { env } from '~/platform/env.server'
import { askedListPage, listPageCount } from '~/platform/admin-list-page.server'
import adminAuditStylesUrl from '~/styles/admin-audit.css?url'
import { declareQueryParams } from '~/platform/query-params'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminAuditStylesUrl }]

export const meta: Route.MetaFunction = ({ data }) => [{ title: adminListTitle('Audit log', data) }]

export const queryParams = declareQueryParams('who', 'what', 'from', 'to', 'page')

/** The filters as the address carries them (a GET form, so they work without JavaScript and can be shared). */
function readFilters(asked: ReturnType<typeof queryParams.read>): {
  who: string
  what: AuditAction | ''
  from: string
  to: string
} {
  const what = asked.what ?? ''
  return {
    who: asked.who?.trim().slice(0, 320) ?? '',
    what: isAuditAction(what) ? what : '',
    from: parsePlainDate(asked.from) ?? '',
    to: parsePlainDate(asked.to) ?? '',
  }
}

type Filters = ReturnType<typeof readFilters>

function addressOf(filters: Filters, page = 1): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value)
  if (page > 1) params.set('page', String(page))
  return params.size ? `?${params}` : '?'
}

function describeDetail(detail: Record<string, unknown> | null): string {
  if (!detail) return ''
  if (typeof detail.from === 'string' && typeof detail.to === 'string') return `${detail.from} → ${detail.to}`
  return Object.entries(detail)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(', ')
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'audit')
  const asked = queryParams.read(request)
  const page = askedListPage(asked.page)
  const filters = readFilters(asked)
  const { timeZone } = await siteSettingsFor(context)
  // Days are the site's days: "to" includes the whole of its last day.
  const query: AuditFilter = {
    actorEmail: filters.who || undefined,
    action: filters.what || undefined,
    from: filters.from ? instantIn(filters.from, '00:00', timeZone).toISOString() : undefined,
    before: filters.to ? instantIn(addDays(filters.to, 1), '00:00', timeZone).toISOString() : undefined,
  }
  const [{ events, total }, actors] = await Promise.all([listAuditEventsForAdmin(query, { page }), listAuditActors()])
  const pageCount = listPageCount(request, page, total)
  return {
    filters,
    total,
    page,
    pageCount,
    keptDays: env.AUDIT_LOG_DAYS,
    actors,
    events: events.map((event) => ({
      id: event.id,
      when: formatDate(event.at, timeZone, 'dateTime'),
      at: event.at,
      who:
        event.actorUserId !== null
          ? { name: event.actorName, email: event.actorEmail }
          : event.clientAddress === COMMAND_LINE
            ? { name: 'Command line', email: '' }
            : { name: event.actorEmail, email: '' },
      what: isAuditAction(event.action) ? AUDIT_ACTIONS[event.action] : event.action,
      detail: describeDetail(event.detail),
      item: event.targetLabel ?? '',
      address: event.clientAddress,
    })),
  }
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { filters, events, total, page, pageCount, actors, keptDays } = loaderData
  const filtered = Object.values(filters).some(Boolean)
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Audit log</h1>
        <p className="muted">
          {total === 1 ? '1 entry' : `${total} entries`}
          {filtered ? ' match' : ''}; entries are kept for {keptDays} days.
        </p>
      </div>
      <Form method="get" className="audit-filters card" aria-label="Filter the audit log">
        <div className="field">
          <label className="field-label" htmlFor="audit-who">
            Who
          </label>
          <select id="audit-who" name="who" className="field-input" defaultValue={filters.who}>
            <option value="">Everyone</option>
            {actors.map((actor) => (
              <option key={actor.email} value={actor.email}>
                {actor.name ? `${actor.name} (${actor.email})` : actor.email}
              </option>
            ))}
            {filters.who && !actors.some((actor) => actor.email === filters.who) ? (
              <option value={filters.who}>{filters.who}</option>
            ) : null}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="audit-what">
            What
          </label>
          <select id="audit-what" name="what" className="field-input" defaultValue={filters.what}>
            <option value="">Everything</option>
            {AUDIT_ACTION_NAMES.map((action) => (
              <option key={action} value={action}>
                {AUDIT_ACTIONS[action]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor="audit-from">
            From
          </label>
          <input id="audit-from" name="from" type="date" className="field-input" defaultValue={filters.from} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor="audit-to">
            To
          </label>
          <input id="audit-to" name="to" type="date" className="field-input" defaultValue={filters.to} />
        </div>
        <div className="button-row">
          <button type="submit" className="button">
            Show
          </button>
          {filtered ? (
            <Link to="/admin/audit" className="button-secondary">
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>
      {events.length === 0 ? (
        <p className="card">{filtered ? 'No entries match these filters.' : 'Nothing has been recorded yet.'}</p>
      ) : (
        <AdminTable caption="Audit log, newest first" columns={['When', 'Who', 'What', 'Item', 'Address']}>
          {events.map((event) => (
            <tr key={event.id}>
              <td data-label="When">
                <time dateTime={event.at}>{event.when}</time>
              </td>
              <td data-label="Who">
                {event.who.name}
                {event.who.email ? <div className="muted">{event.who.email}</div> : null}
              </td>
              <td data-label="What">
                {event.what}
                {event.detail ? <div className="muted audit-detail">{event.detail}</div> : null}
              </td>
              <td data-label="Item">{event.item}</td>
              <td data-label="Address">{event.address}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      <Pagination
        page={page}
        pageCount={pageCount}
        label="Pages of the audit log"
        hrefOf={(p) => addressOf(filters, p)}
        newerLabel="Newer entries"
        olderLabel="Older entries"
        className="button-row"
        linkClassName="button-secondary button-small"
      />
    </div>
  )
}
