import { FormProvider, getFormProps, useField, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/pages'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ErrorSummary } from '~/components/error-summary'
import { ErrorList, Field, TextareaField } from '~/components/forms'
import { ImageField } from '~/components/image-field'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { pageEditors, type EditorField, type PageEditor } from '~/modules/pages/pages.editor'
import { getPageContent, getPageHeroImage } from '~/modules/pages/pages.queries.server'
import { PageFormSchemas, type PageContent } from '~/modules/pages/pages.schema'
import { savePageContent } from '~/modules/pages/pages.service.server'
import { canManage } from '~/platform/access'
import { requireAccess } from '~/platform/auth.server'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { MediaRejectedError } from '~/platform/media/media-rejected'
import { replyWithRejectedMedia } from '~/platform/media/media-reply'
import { redirectWithToast } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { declareQueryParams } from '~/platform/query-params'

export const meta: Route.MetaFunction = () => [{ title: 'Page texts | Site admin' }]

export const queryParams = declareQueryParams('page')

/** The page being edited comes from ?page=; without one, the home page. */
function editorFor(request: Request): PageEditor {
  const requested = queryParams.read(request).page ?? 'home'
  const editor = pageEditors.find((e) => e.key === requested)
  if (!editor) throw data('Unknown page', { status: 404 })
  return editor
}

function editorUrl(editor: PageEditor) {
  return `/admin/pages?page=${editor.key}`
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'pages')
  const editor = editorFor(request)
  const [content, heroImage] = await Promise.all([getPageContent(editor.key), getPageHeroImage(editor.key)])
  return { key: editor.key, content, heroImage, editsSettings: canManage(user, 'settings') }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'pages')
  const editor = editorFor(request)
  const submission = await parseFormSubmission(request, PageFormSchemas[editor.key])
  if (submission.status !== 'success') {
    return data({ result: submission.reply() as SubmissionResult<string[]> }, { status: 400 })
  }
  const { image, imageAlt, removeImage, ...content } = submission.value
  try {
    await savePageContent(editor.key, content, { image, imageAlt, removeImage })
  } catch (error) {
    if (error instanceof MediaRejectedError) return replyWithRejectedMedia(submission, error, 'image')
    throw error
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'page-texts.changed',
    target: { type: 'page', id: editor.key, label: editor.title },
  })
  return redirectWithToast(editorUrl(editor), `The ${editor.title} page texts are saved.`)
}

export default function PageTexts({ loaderData, actionData }: Route.ComponentProps) {
  const editor = pageEditors.find((e) => e.key === loaderData.key)!
  return (
    <div className="stack">
      <h1>Page texts</h1>
      <p>
        Choose a page, change its texts and save. Numbers in the impact lists, contact details and bank accounts are edited under{' '}
        {loaderData.editsSettings ? <Link to="/admin/settings">Site settings</Link> : 'Site settings, by an administrator'}.
      </p>
      <nav aria-label="Pages">
        <ul className="button-row page-tabs">
          {pageEditors.map((e) => (
            <li key={e.key}>
              <Link
                to={editorUrl(e)}
                className={e.key === editor.key ? 'button button-small' : 'button-secondary button-small'}
                aria-current={e.key === editor.key ? 'page' : undefined}
              >
                {e.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <EditorForm
        key={editor.key}
        editor={editor}
        content={loaderData.content}
        heroImage={loaderData.heroImage}
        lastResult={actionData?.result}
      />
    </div>
  )
}

function EditorForm({
  editor,
  content,
  heroImage,
  lastResult,
}: {
  editor: PageEditor
  content: PageContent[keyof PageContent]
  heroImage: ResponsiveImageData | null
  lastResult?: SubmissionResult<string[]>
}) {
  const schema = PageFormSchemas[editor.key]
  // The texts are typed by the page's schema; the form only needs to name the image fields.
  const [form, fields] = useForm<{ [name: string]: any }>({
    id: `page-texts-${editor.key}`,
    lastResult,
    defaultValue: { ...content, imageAlt: heroImage?.alt ?? '' },
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  // Several groups have a 'Heading': the summary says which group an error is in.
  const legendOf = new Map(editor.groups.flatMap((group) => group.fields.map((field) => [field.name, group.legend] as const)))
  return (
    <FormProvider context={form.context}>
      <Form
        method="post"
        action={editorUrl(editor)}
        encType="multipart/form-data"
        className="form page-texts-form"
        {...getFormProps(form)}
      >
        <div className="admin-page-header">
          <h2>{editor.title}</h2>
          <Link to={editor.path} className="button-secondary button-small">
            View page<span className="visually-hidden">: {editor.title}</span>
          </Link>
        </div>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <ErrorSummary form={form} contextOf={(name) => legendOf.get(name)} />
        {editor.groups.map((group) => (
          <fieldset key={group.legend} className="stack">
            <legend>{group.legend}</legend>
            {group.fields.map((field) => (
              <EditorInput key={field.name} field={field} />
            ))}
            {group.fields.some((field) => field.name === 'hero.title') ? (
              // The first group is the page header: its photograph belongs with it.
              <>
                <ImageField
                  meta={fields.image}
                  removeMeta={fields.removeImage}
                  current={heroImage}
                  preset="hero"
                  label={
                    heroImage ? 'Replace the photograph behind the header (optional)' : 'Photograph behind the header (optional)'
                  }
                  hint="A wide photo, JPG, PNG, GIF or WEBP, at most 10MB. It is darkened so the white title stays readable."
                />
                <Field
                  meta={fields.imageAlt}
                  label="Photograph description (optional)"
                  hint="What the picture shows, for people who cannot see it."
                />
              </>
            ) : null}
          </fieldset>
        ))}
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Save texts'}
          </button>
        </div>
      </Form>
    </FormProvider>
  )
}

function EditorInput({ field }: { field: EditorField }) {
  const [meta] = useField<string>(field.name)
  // Spare rows (contact persons) may stay empty, although their fields are required once a row is used.
  const optional = field.optional ? { required: false } : {}
  return field.multiline ? (
    <TextareaField meta={meta} label={field.label} rows={5} {...optional} />
  ) : (
    <Field meta={meta} label={field.label} type={field.type ?? 'text'} {...optional} />
  )
}
