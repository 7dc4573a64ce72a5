import { data, redirect } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/previews'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { issuePreviewLink } from '~/modules/previews/preview-links.server'
import { canManage } from '~/platform/access'
import { requireAccess } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { kindOfTable, PUBLISHABLE_KINDS, PUBLISHABLE_TABLES } from '~/platform/publication'
import { redirectWithToast } from '~/platform/toast.server'

// "Preview" on an edit page: makes a link to the draft or scheduled item and opens it.

const PreviewSchema = z.object({
  table: z.enum(PUBLISHABLE_TABLES),
  id: z.string().trim().min(1).max(100),
})

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'previews')
  const submission = await parseFormSubmission(request, PreviewSchema)
  if (submission.status !== 'success') throw data('This preview request is not understood.', { status: 400 })
  const { table, id } = submission.value
  const kind = kindOfTable(table)
  const { section, adminPath: edit } = PUBLISHABLE_KINDS[kind]
  if (!canManage(user, section)) throw data('You do not have permission to preview this.', { status: 403 })
  const link = await issuePreviewLink(table, id, user.id)
  if ('refused' in link) {
    return link.refused === 'already-public'
      ? redirectWithToast(`${edit}/${encodeURIComponent(id)}`, 'It is published already: it needs no preview.', 'error')
      : redirectWithToast(edit, 'This item has been deleted in the meantime.', 'error')
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'preview.link-made',
    target: { type: kind, id, label: link.label },
  })
  return redirect(`/preview/${link.token}`)
}
