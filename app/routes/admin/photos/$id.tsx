import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { BackLink } from '~/components/back-link'
import { getSiteOrigin } from '~/platform/site-url.server'
import { withSiteLinksRelative } from '~/platform/site-links'
import type { Route } from './+types/$id'
import { ViewOrPreview } from '~/components/view-or-preview'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { MediaDetailsFields } from './media-fields'
import { ConfirmButton } from '~/components/confirm-button'
import { ErrorList } from '~/components/forms'
import { ResponsiveImage } from '~/components/responsive-image'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { getMediaForEdit } from '~/modules/gallery/gallery.admin-queries.server'
import { MediaEditSchema, type MediaEditValues } from '~/modules/gallery/gallery.schema'
import { MediaItemNotFoundError, updateMediaItem } from '~/modules/gallery/gallery.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { publishingOf } from '~/platform/publication.server'
import { redirectToTrash } from '~/modules/trash/trash.server'
import { publishChoiceDefaults } from '~/platform/publication'
import { PublishChoiceFields } from '~/components/publish-choice-fields'

import { requireAccess } from '~/platform/auth.server'
import { logger } from '~/platform/logger.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'
import adminGalleryStylesUrl from '~/styles/admin-gallery.css?url'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminGalleryStylesUrl }]

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.item.title ?? 'Photo or video'} | Site admin` }]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'gallery')
  const [item, { timeZone }] = await Promise.all([getMediaForEdit(params.id), siteSettingsFor(context)])
  if (!item) throw data('Media item not found', { status: 404 })
  if (item.trashedAt) throw redirectToTrash(item.title)
  return { item, timeZone, publishing: publishChoiceDefaults(item.publishAt, timeZone) }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'gallery')
  const submission = await parseFormSubmission(request, MediaEditSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const { timeZone } = await siteSettingsFor(context)
    const publishing = await publishingOf(submission.value, timeZone, { table: 'mediaItems', id: params.id })
    await updateMediaItem(params.id, {
      ...withSiteLinksRelative(submission.value, 'description', getSiteOrigin(request, context)),
      ...publishing,
    })
  } catch (error) {
    if (error instanceof MediaItemNotFoundError) {
      return redirectWithToast('/admin/photos', 'This item has been deleted in the meantime.', 'error')
    }
    logger.error({ err: error, mediaItemId: params.id }, 'media item could not be updated')
    return data({ result: submission.reply({ formErrors: ['Failed to update media'] }) }, { status: 500 })
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'media.edited',
    target: { type: 'media', id: params.id, label: submission.value.title },
  })
  return redirectWithToast('/admin/photos', 'Changes saved.')
}

export default function EditMedia({ loaderData, actionData }: Route.ComponentProps) {
  const { item, timeZone, publishing } = loaderData
  const [form, fields] = useForm<MediaEditValues>({
    lastResult: actionData?.result,
    defaultValue: {
      title: item.title,
      description: item.description,
      category: item.category,
      featured: item.featured,
      ...publishing,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MediaEditSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  return (
    <div className="stack">
      <BackLink to="/admin/photos">All photos and videos</BackLink>
      <div className="admin-page-header">
        <h1>Edit {item.kind}</h1>
        {item.status === 'ready' ? (
          <ViewOrPreview table="mediaItems" id={item.id} path={`/photos/${item.slug}`} publish={publishing.publish} />
        ) : null}
      </div>
      <div className="admin-media-edit">
        {item.thumbnail ? (
          <figure className="admin-media-preview">
            <ResponsiveImage image={item.thumbnail} sizes="16rem" />
            <figcaption>{item.kind === 'video' ? 'The video\u2019s poster' : 'The photo'}</figcaption>
          </figure>
        ) : null}
        {item.statusText ? (
          <p className={item.status === 'failed' ? 'admin-media-status admin-media-status-failed' : 'admin-media-status'}>
            {item.statusText}
          </p>
        ) : null}
      </div>
      <Form method="post" className="form form-with-editor" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <MediaDetailsFields fields={fields} />
        <PublishChoiceFields fields={fields} timeZone={timeZone} />
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Save changes'}
          </button>
          <Link to="/admin/photos" className="button-secondary">
            Cancel
          </Link>
        </div>
      </Form>
      <section className="admin-danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete this {item.kind}</h2>
        <p className="muted">Its files are deleted too.</p>
        <ConfirmButton
          action="/admin/photos"
          hiddenFields={{ intent: 'delete', id: item.id }}
          label={`Delete ${item.kind}`}
          confirmText={`Are you sure you want to delete this ${item.kind}?`}
          confirmLabel="Delete"
        />
      </section>
    </div>
  )
}
