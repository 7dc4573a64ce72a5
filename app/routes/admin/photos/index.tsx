import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { data, Form, useLocation, Link } from 'react-router'
import type { Route } from './+types/index'
import { auditSourceOf, recordAuditEvent, type AuditSource } from '~/modules/audit/audit.service.server'
import { MediaDetailsFields } from './media-fields'
import { AdminBadge, AdminTable, EditDeleteCell, ThumbnailCell } from '~/components/admin-table'
import { ErrorList } from '~/components/forms'
import { ResumableUpload } from '~/components/resumable-upload'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { AdminListPagination, adminListTitle } from '~/components/admin-list-pagination'
import { PublicationStateBadge, PublicationStateFilter } from '~/components/publication-state'
import { describePublication, parsePublicationState } from '~/platform/publication'
import { listMediaForAdmin, type AdminMediaRow } from '~/modules/gallery/gallery.admin-queries.server'
import {
  MediaActionSchema,
  MediaUploadSchema,
  UPLOAD_FAILED_MESSAGE,
  type MediaUploadValues,
} from '~/modules/gallery/gallery.schema'
import { acceptOf, fileProblem } from '~/platform/media/image-presets'
import { DEFAULT_MEDIA_CATEGORY } from '~/modules/gallery/media-categories'
import { addMediaItems } from '~/modules/gallery/gallery.service.server'
import { moveToTrash } from '~/modules/trash/trash.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { countInState, publishingOf } from '~/platform/publication.server'
import { PublishChoiceFields } from '~/components/publish-choice-fields'
import { requireAccess } from '~/platform/auth.server'
import { formatDate } from '~/platform/dates'
import { logger } from '~/platform/logger.server'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { replyWithRejectedMedia } from '~/platform/media/media-reply'
import { UPLOAD_MAX_MB } from '~/platform/media/upload-policy'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast, redirectWithUndo } from '~/platform/toast.server'
import { declareQueryParams } from '~/platform/query-params'
import { backToList, askedListPage, listPageCount } from '~/platform/admin-list-page.server'
import { withSiteLinksRelative } from '~/platform/site-links'
import { getSiteOrigin } from '~/platform/site-url.server'
import adminGalleryStylesUrl from '~/styles/admin-gallery.css?url'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminGalleryStylesUrl }]

export const queryParams = declareQueryParams('from', 'state', 'page')

export const meta: Route.MetaFunction = ({ data }) => [{ title: adminListTitle('Gallery', data) }]

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'gallery')
  const asked = queryParams.read(request)
  const state = parsePublicationState(asked.state)
  const page = askedListPage(asked.page)
  const pageCount = listPageCount(request, page, await countInState('mediaItems', state))
  const [items, settings] = await Promise.all([listMediaForAdmin(state, page), siteSettingsFor(context)])
  return {
    state,
    page,
    pageCount,
    items: items.map((item) => ({
      ...item,
      dateLabel: formatDate(item.createdAt, settings.timeZone, 'date'),
      publication: describePublication(item.publishAt, settings.timeZone),
    })),
    timeZone: settings.timeZone,
  }
}

/** Uploads new items (intent `upload`) or deletes one (intent `delete`; the edit page posts here too). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'gallery')
  const submission = await parseFormSubmission(request, MediaActionSchema)
  if (submission.status !== 'success') {
    if (submission.payload.intent === 'delete') {
      return data({ result: undefined, error: 'Media ID is required for deletion' }, { status: 400 })
    }
    return data({ result: submission.reply() }, { status: 400 })
  }
  const { value } = submission
  const by = auditSourceOf(user, context)
  if (value.intent === 'delete') {
    return deleteItem(value.id, backToList(request, value.returnTo), by)
  }
  let added: string[]
  try {
    const { timeZone } = await siteSettingsFor(context)
    const details = withSiteLinksRelative(value, 'description', getSiteOrigin(request, context))
    added = (await addMediaItems({ ...details, ...(await publishingOf(value, timeZone)) }, user)).slugs
  } catch (error) {
    if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'files')
    logger.error({ err: error }, 'media items could not be added')
    return data({ result: submission.reply({ formErrors: [UPLOAD_FAILED_MESSAGE] }) }, { status: 500 })
  }
  await recordAuditEvent({
    by,
    action: 'media.added',
    target: { type: 'media', id: null, label: value.title },
    detail: { items: added.length },
  })
  // "Upload" on the public gallery opens this page with ?from=photos: back there afterwards.
  const back = queryParams.read(request).from === 'photos' ? '/photos' : '/admin/photos'
  return redirectWithToast(back, added.length === 1 ? 'Uploaded 1 item.' : `Uploaded ${added.length} items.`)
}

async function deleteItem(id: string, returnTo: string, by: AuditSource) {
  let deleted: { label: string } | undefined
  try {
    deleted = await moveToTrash('media', id)
  } catch (error) {
    logger.error({ err: error, mediaItemId: id }, 'media item could not be deleted')
    return redirectWithToast(returnTo, 'Failed to delete media', 'error')
  }
  if (!deleted) return redirectWithToast(returnTo, 'Deleted.')
  await recordAuditEvent({ by, action: 'media.deleted', target: { type: 'media', id, label: deleted.label } })
  return redirectWithUndo(returnTo, 'Moved to the trash.', { kind: 'media', id })
}

export default function AdminPhotos({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation()
  return (
    <div className="stack">
      <h1>Gallery</h1>
      <section className="admin-panel" aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload photos and videos</h2>
        {/* A new form after each upload: the files chosen last time are done with. */}
        <UploadForm key={location.key} lastResult={actionData?.result} timeZone={loaderData.timeZone} />
      </section>
      <ErrorList errors={actionData && 'error' in actionData ? [actionData.error] : null} variant="form" />
      <section aria-labelledby="items-heading" className="stack">
        <h2 id="items-heading">Photos and videos</h2>
        <PublicationStateFilter path="/admin/photos" current={loaderData.state} page={loaderData.page} />
        <MediaTable items={loaderData.items} filtered={loaderData.state !== null} />
        <AdminListPagination
          path="/admin/photos"
          state={loaderData.state}
          page={loaderData.page}
          pageCount={loaderData.pageCount}
          label="Pages of photos and videos"
        />
      </section>
    </div>
  )
}

function UploadForm({ lastResult, timeZone }: { lastResult?: SubmissionResult<string[]>; timeZone: string }) {
  const [form, fields] = useForm<MediaUploadValues>({
    id: 'upload',
    lastResult,
    defaultValue: { category: DEFAULT_MEDIA_CATEGORY },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: MediaUploadSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const [uploading, setUploading] = useState(false)
  const saving = useIsSubmitting('upload')
  return (
    <Form method="post" className="form form-with-editor" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="upload" />
      <ErrorList id={form.errorId} errors={form.errors} variant="form" />
      <ResumableUpload
        name={fields.files.name}
        label="Files"
        hint={`Images (JPG, PNG, GIF, WEBP) and videos (MP4, WebM, MOV), up to ${UPLOAD_MAX_MB}MB each. Each file becomes an item with the title and description below.`}
        accept={acceptOf('gallery')}
        multiple
        refuse={(file) => fileProblem(file, 'gallery')}
        errors={fields.files.errors}
        onBusyChange={setUploading}
      />
      <MediaDetailsFields fields={fields} />
      <PublishChoiceFields fields={fields} timeZone={timeZone} />
      <div className="button-row">
        <button type="submit" className="button" disabled={uploading || saving}>
          {uploading || saving ? 'Uploading...' : 'Upload'}
        </button>
      </div>
    </Form>
  )
}

function statusOf(item: AdminMediaRow): string | null {
  if (item.status === 'processing') return 'Processing'
  if (item.status === 'failed') return 'Failed'
  return null
}

function MediaTable({
  items,
  filtered,
}: {
  items: (AdminMediaRow & { dateLabel: string; publication: ReturnType<typeof describePublication> })[]
  filtered: boolean
}) {
  if (items.length === 0) {
    return (
      <p>
        {filtered
          ? 'No photos or videos in this state.'
          : 'No photos or videos yet. What you upload appears on the Photos page, newest first.'}
      </p>
    )
  }
  return (
    <AdminTable
      caption="Photos and videos, newest first"
      columns={['Preview', 'Title', 'Category', 'Added']}
      actions
      className="admin-media-table"
    >
      {items.map((item) => {
        const status = statusOf(item)
        return (
          <tr key={item.id}>
            <ThumbnailCell image={item.thumbnail} />
            <td data-label="Title">
              {status ? item.title : <Link to={`/photos/${item.slug}`}>{item.title}</Link>}
              <AdminBadge>{item.kind === 'video' ? 'video' : 'photo'}</AdminBadge>
              {item.featured ? <AdminBadge>featured</AdminBadge> : null}
              {item.isSample ? <AdminBadge>sample</AdminBadge> : null}
              <PublicationStateBadge {...item.publication} />
              {status ? (
                <AdminBadge className={item.status === 'failed' ? 'admin-badge-danger' : 'admin-badge-waiting'}>
                  {status}
                </AdminBadge>
              ) : null}
              {item.statusText ? <p className="admin-media-status">{item.statusText}</p> : null}
            </td>
            <td data-label="Category">{item.category}</td>
            <td data-label="Added">
              <time dateTime={item.createdAt}>{item.dateLabel}</time>
            </td>
            <EditDeleteCell
              editTo={`/admin/photos/${item.id}`}
              name={item.title}
              deleteFields={{ intent: 'delete', id: item.id }}
              confirmText={`Are you sure you want to delete this ${item.kind}?`}
            />
          </tr>
        )
      })}
    </AdminTable>
  )
}
