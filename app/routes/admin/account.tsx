import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/account'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ErrorList, Field } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { ChangeOwnPasswordSchema, PASSWORD_MIN_LENGTH, ROLE_LABELS } from '~/modules/users/users.schema'
import { getTwoStepStatus } from '~/modules/users/two-step.server'
import { changeOwnPassword, UserRuleError } from '~/modules/users/users.service.server'
import { requireAccess } from '~/platform/auth.server'
import { requestInfoContext } from '~/platform/request-context'
import { sessionCookie } from '~/platform/session.server'
import { redirectWithToast } from '~/platform/toast.server'
import { parseFormSubmission } from '~/platform/form-submission.server'

export const meta: Route.MetaFunction = () => [{ title: 'My account | Site admin' }]

const SENSITIVE = ['currentPassword', 'newPassword', 'confirmPassword']

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireAccess(request, 'account')
  const twoStep = await getTwoStepStatus(user.id)
  return { name: user.name, email: user.email, role: ROLE_LABELS[user.role], twoStepOn: twoStep.enabled }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess(request, 'account')
  const submission = await parseFormSubmission(request, ChangeOwnPasswordSchema, { hideFields: SENSITIVE })
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: 400 })
  }
  try {
    const session = await changeOwnPassword(user.id, submission.value.currentPassword, submission.value.newPassword)
    await recordAuditEvent({
      by: auditSourceOf(user, context),
      action: 'account.password-changed',
      target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
    })
    return redirectWithToast('/admin/account', 'Your password has been changed. Other devices have been signed out.', 'success', {
      headers: { 'Set-Cookie': sessionCookie(session, context.get(requestInfoContext).secure) },
    })
  } catch (error) {
    if (!(error instanceof UserRuleError) || !error.field) throw error
    return data(
      { result: submission.reply({ fieldErrors: { [error.field]: [error.message] } }) },
      { status: 400 },
    )
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeOwnPasswordSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  return (
    <div className="stack">
      <h1>My account</h1>
      <p className="muted">
        {loaderData.name} · {loaderData.email} · {loaderData.role}
      </p>
      <section className="card admin-section" aria-labelledby="two-step-heading">
        <h2 id="two-step-heading">Two-step sign-in</h2>
        <p>
          {loaderData.twoStepOn
            ? 'On: you sign in with your password and a code from your authenticator app.'
            : 'Off: only your password protects your account.'}
        </p>
        <div className="button-row">
          <Link to="/admin/account/two-step" className={loaderData.twoStepOn ? 'button-secondary' : 'button'}>
            {loaderData.twoStepOn ? 'Manage two-step sign-in' : 'Set up two-step sign-in'}
          </Link>
        </div>
      </section>
      <section className="card admin-section" aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <Form method="post" className="form" {...getFormProps(form)}>
          <ErrorList id={form.errorId} errors={form.errors} variant="form" />
          <Field meta={fields.currentPassword} label="Current password" type="password" autoComplete="current-password" required />
          <Field
            meta={fields.newPassword}
            label="New password"
            type="password"
            autoComplete="new-password"
            hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
            required
          />
          <Field meta={fields.confirmPassword} label="Repeat new password" type="password" autoComplete="new-password" required />
          <div className="button-row">
            <button type="submit" className="button" disabled={saving}>
              {saving ? 'Saving...' : 'Change password'}
            </button>
          </div>
        </Form>
      </section>
    </div>
  )
}
