import { FormProvider, getFormProps, useField, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/pages'
import { ErrorList, Field, TextareaField } from '~/components/forms'
import { pageEditors, type EditorField, type PageEditor } from '~/modules/pages/pages.editor'
import { getPageContent } from '~/modules/pages/pages.queries.server'
import { PageContentSchemas, type PageContent } from '~/modules/pages/pages.schema'
import { savePageContent } from '~/modules/pages/pages.service.server'
import { requireAccess } from '~/platform/auth.server'
import { redirectWithToast } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const meta: Route.MetaFunction = () => [{ title: 'Page texts | Site admin' }]

/** The page being edited comes from ?page=; without one, the home page. */
function editorFor(request: Request): PageEditor {
  const requested = new URL(request.url).searchParams.get('page') ?? 'home'
  const editor = pageEditors.find((e) => e.key === requested)
  if (!editor) throw data('Unknown page', { status: 404 })
  return editor
}

function editorUrl(editor: PageEditor) {
  return `/admin/pages?page=${editor.key}`
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAccess(request, 'pages')
  const editor = editorFor(request)
  return { key: editor.key, content: await getPageContent(editor.key) }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAccess(request, 'pages')
  const editor = editorFor(request)
  const submission = await parseFormSubmission(request, PageContentSchemas[editor.key])
  if (submission.status !== 'success') {
    return data({ result: submission.reply() as SubmissionResult<string[]> }, { status: 400 })
  }
  await savePageContent(editor.key, submission.value)
  return redirectWithToast(editorUrl(editor), `The ${editor.title} page texts are saved.`)
}

export default function PageTexts({ loaderData, actionData }: Route.ComponentProps) {
  const editor = pageEditors.find((e) => e.key === loaderData.key)!
  return (
    <div className="stack">
      <h1>Page texts</h1>
      <p>
        Choose a page, change its texts and save. Numbers in the impact lists, contact details and bank accounts are
        edited under <Link to="/admin/settings">Settings</Link>.
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
      <EditorForm key={editor.key} editor={editor} content={loaderData.content} lastResult={actionData?.result} />
    </div>
  )
}

function EditorForm({
  editor,
  content,
  lastResult,
}: {
  editor: PageEditor
  content: PageContent[keyof PageContent]
  lastResult?: SubmissionResult<string[]>
}) {
  const schema = PageContentSchemas[editor.key]
  const [form] = useForm({
    id: `page-texts-${editor.key}`,
    lastResult,
    defaultValue: content,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useNavigation().state === 'submitting'
  return (
    <FormProvider context={form.context}>
      <Form method="post" action={editorUrl(editor)} className="form page-texts-form" {...getFormProps(form)}>
        <div className="admin-page-header">
          <h2>{editor.title}</h2>
          <Link to={editor.path} className="button-secondary button-small">
            View page<span className="visually-hidden">: {editor.title}</span>
          </Link>
        </div>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        {hasFieldErrors(lastResult) ? (
          <p className="form-errors" role="alert">
            Some texts need your attention: see the messages below.
          </p>
        ) : null}
        {editor.groups.map((group) => (
          <fieldset key={group.legend} className="stack">
            <legend>{group.legend}</legend>
            {group.fields.map((field) => (
              <EditorInput key={field.name} field={field} />
            ))}
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

/** Whether the server asks for changes to particular texts (form-level messages show on their own). */
function hasFieldErrors(result?: SubmissionResult<string[]>): boolean {
  return Object.entries(result?.error ?? {}).some(([name, errors]) => name !== '' && !!errors?.length)
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
