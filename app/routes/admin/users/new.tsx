import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/new'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ErrorList, Field, SelectField } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { NewUserSchema, PASSWORD_MIN_LENGTH, ROLE_OPTIONS, ROLES_HINT } from '~/modules/users/users.schema'
import { createUser, UserRuleError } from '~/modules/users/users.service.server'
import { requireAccess, requireRecentConfirmation } from '~/platform/auth.server'
import { redirectWithToast } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const meta: Route.MetaFunction = () => [{ title: 'Add user | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'users')
  return null
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireRecentConfirmation({ request, context }, '/admin/users/new', 'users')
  const submission = await parseFormSubmission(request, NewUserSchema, { hideFields: ['password'] })
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: 400 })
  }
  let created: { id: string; name: string; email: string; role: string }
  try {
    created = await createUser(submission.value)
  } catch (error) {
    if (!(error instanceof UserRuleError)) throw error
    const errors = error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] }
    return data({ result: submission.reply(errors) }, { status: 400 })
  }
  await recordAuditEvent({
    by: auditSourceOf(me, context),
    action: 'user.created',
    target: { type: 'user', id: created.id, label: `${created.name} <${created.email}>` },
    detail: { role: created.role },
  })
  return redirectWithToast('/admin/users', `${submission.value.name} can now sign in.`)
}

export default function NewUser({ actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NewUserSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  return (
    <div className="stack">
      <h1>Add user</h1>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <Field meta={fields.name} label="Name" autoComplete="off" required />
        <Field meta={fields.email} label="E-mail" type="email" autoComplete="off" required />
        <SelectField
          meta={fields.role}
          label="Role"
          options={ROLE_OPTIONS}
          placeholder="Choose a role"
          hint={ROLES_HINT}
          required
        />
        <Field
          meta={fields.password}
          label="Initial password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. Give it to the person in a safe way; they can change it under My account.`}
          required
        />
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Adding...' : 'Add user'}
          </button>
          <Link to="/admin/users" className="button-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  )
}
