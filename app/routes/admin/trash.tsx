import { data } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/trash'
import { AdminTable } from '~/components/admin-table'
import { ConfirmButton } from '~/components/confirm-button'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import type { AuditAction } from '~/modules/audit/audit.actions'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { TRASH_DAYS } from '~/modules/trash/trash-days'
import { PUBLISHABLE_KIND_NAMES, PUBLISHABLE_KINDS } from '~/platform/publication'
import {
  countTrash,
  deleteForGood,
  listTrash,
  removeFromTrash,
  restoreFromTrash,
  trashKindsFor,
} from '~/modules/trash/trash.server'
import { canManage } from '~/platform/access'
import { requireAccess, safeRedirectPath } from '~/platform/auth.server'
import { formatDate } from '~/platform/dates'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { text } from '~/platform/form-schema'
import { logger } from '~/platform/logger.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Trash | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'trash')
  const kinds = trashKindsFor((section) => canManage(user, section))
  const [items, { timeZone }] = await Promise.all([listTrash(kinds), siteSettingsFor(context)])
  const expiresAt = (trashedAt: string) => new Date(Date.parse(trashedAt) + TRASH_DAYS * 86_400_000).toISOString()
  return {
    items: items.map((item) => ({
      ...item,
      noun: PUBLISHABLE_KINDS[item.kind].noun,
      deletedLabel: formatDate(item.trashedAt, timeZone, 'dateTime'),
      expiresLabel: formatDate(expiresAt(item.trashedAt), timeZone, 'date'),
    })),
  }
}

// The Undo of a delete toast comes back to the page it was shown on: a path of this site only.
const returnTo = text()
  .max(300)
  .optional()
  .transform((path) => safeRedirectPath(path, '/admin/trash'))
  .catch('/admin/trash')

const ItemFields = { kind: z.enum(PUBLISHABLE_KIND_NAMES), id: text().trim().min(1).max(100), returnTo }

const TrashActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('restore'), ...ItemFields }),
  z.object({ intent: z.literal('delete-for-good'), ...ItemFields }),
  z.object({ intent: z.literal('empty') }),
])

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'trash')
  const submission = await parseFormSubmission(request, TrashActionSchema)
  if (submission.status !== 'success') return data({ error: 'This item could not be found in the trash.' }, { status: 400 })
  const by = auditSourceOf(user, context)
  const value = submission.value
  if (value.intent === 'empty') {
    const kinds = trashKindsFor((section) => canManage(user, section))
    // One batch per request, so its work stays bounded; the admin is told what is left for the next click.
    const removed = await removeFromTrash(kinds, null)
    await recordAuditEvent({ by, action: 'trash.emptied', detail: { removed } })
    const left = await countTrash(kinds)
    const done = removed === 1 ? '1 item deleted for good.' : `${removed} items deleted for good.`
    return redirectWithToast('/admin/trash', left === 0 ? done : `${done} ${left} more wait: press Empty trash again.`)
  }
  const { kind, id } = value
  // A marketplace manager may restore and delete products only.
  if (!canManage(user, PUBLISHABLE_KINDS[kind].section)) throw data('Not allowed', { status: 403 })
  const restoring = value.intent === 'restore'
  let done: { label: string } | undefined
  try {
    done = restoring ? await restoreFromTrash(kind, id) : await deleteForGood(kind, id)
  } catch (error) {
    logger.error({ err: error, kind, id }, 'trash action failed')
    return redirectWithToast('/admin/trash', 'That did not work. Please try again.', 'error')
  }
  const back = restoring ? value.returnTo : '/admin/trash'
  if (!done) return redirectWithToast(back, 'This item is no longer in the trash.', 'error')
  const action: AuditAction = `${kind}.${restoring ? 'restored' : 'deleted-for-good'}`
  await recordAuditEvent({ by, action, target: { type: kind, id, label: done.label } })
  return redirectWithToast(
    back,
    restoring ? `${PUBLISHABLE_KINDS[kind].noun} restored.` : `${PUBLISHABLE_KINDS[kind].noun} deleted for good.`,
  )
}

export default function Trash({ loaderData, actionData }: Route.ComponentProps) {
  const { items } = loaderData
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Trash</h1>
        {items.length > 0 ? (
          <ConfirmButton
            hiddenFields={{ intent: 'empty' }}
            label="Empty trash"
            confirmText="Delete everything in the trash for good, with its pictures and videos? This cannot be undone."
            confirmLabel="Empty trash"
          />
        ) : null}
      </div>
      <p>Deleted items wait here for {TRASH_DAYS} days, hidden from the site, then they and their files are removed for good.</p>
      {actionData?.error ? (
        <p className="form-errors" role="alert">
          {actionData.error}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p>The trash is empty.</p>
      ) : (
        <AdminTable caption="Deleted items, most recent first" columns={['Item', 'Deleted', 'Removed for good on']} actions>
          {items.map((item) => (
            <tr key={`${item.kind}-${item.id}`}>
              <td data-label="Item">
                <span className="muted">{item.noun}:</span> {item.label}
              </td>
              <td data-label="Deleted">
                <time dateTime={item.trashedAt}>{item.deletedLabel}</time>
              </td>
              <td data-label="Removed for good on">{item.expiresLabel}</td>
              <td>
                <div className="button-row">
                  <form method="post">
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="kind" value={item.kind} />
                    <input type="hidden" name="id" value={item.id} />
                    <button type="submit" className="button-secondary button-small" aria-label={`Restore ${item.label}`}>
                      Restore
                    </button>
                  </form>
                  <ConfirmButton
                    hiddenFields={{ intent: 'delete-for-good', kind: item.kind, id: item.id }}
                    label="Delete for good"
                    title={`Delete ${item.label} for good`}
                    confirmText={`Delete "${item.label}" for good, with its files? This cannot be undone.`}
                    confirmLabel="Delete for good"
                    className="button-danger button-small"
                  />
                </div>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  )
}
