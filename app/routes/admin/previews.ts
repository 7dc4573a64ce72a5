import { data, redirect } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/previews'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { issuePreviewLink } from '~/modules/previews/preview-links.server'
import { canManage, type SectionName } from '~/platform/access'
import type { AuditTargetType } from '~/modules/audit/audit.actions'
import { requireAccess } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { PUBLISHABLE_TABLES, type PublishableTable } from '~/platform/publication.server'
import { redirectWithToast } from '~/platform/toast.server'
import { changesNoPublicPage } from '~/platform/private-responses.server'

export const middleware: Route.MiddlewareFunction[] = [changesNoPublicPage]

// "Preview" on an edit page: makes a link to the draft or scheduled item and opens it.

const SECTION_OF: Record<PublishableTable, { section: SectionName; target: AuditTargetType; edit: string }> = {
  articles: { section: 'news', target: 'article', edit: '/admin/news' },
  mediaItems: { section: 'gallery', target: 'media', edit: '/admin/photos' },
  events: { section: 'events', target: 'event', edit: '/admin/events' },
  products: { section: 'products', target: 'product', edit: '/admin/products' },
}

const PreviewSchema = z.object({
  table: z.enum(PUBLISHABLE_TABLES),
  id: z.string().trim().min(1).max(100),
})

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess(request, 'previews')
  const submission = await parseFormSubmission(request, PreviewSchema)
  if (submission.status !== 'success') throw data('This preview request is not understood.', { status: 400 })
  const { table, id } = submission.value
  const { section, target, edit } = SECTION_OF[table]
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
    target: { type: target, id, label: link.label },
  })
  return redirect(`/preview/${link.token}`)
}
