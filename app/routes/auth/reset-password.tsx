import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/reset-password'
import { ErrorList, NewPasswordFields } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { recordAuditEvent } from '~/modules/audit/audit.service.server'
import { findUserOfResetLink, resetPasswordWithLink } from '~/modules/users/password-reset.server'
import { ChooseNewPasswordSchema, PASSWORD_RESET_MESSAGES } from '~/modules/users/users.schema'
import { UserRuleError } from '~/modules/users/users.service.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { requestInfoContext } from '~/platform/request-context'
import { redirectWithToast } from '~/platform/toast.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

export const meta: Route.MetaFunction = () => [{ title: 'Choose a new password' }, { name: 'robots', content: 'noindex' }]

// The address holds a secret: no cache keeps the page (the site's Referrer-Policy already keeps
// the path from other sites).
const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

const SENSITIVE = ['newPassword', 'confirmPassword']

export async function loader({ params }: Route.LoaderArgs) {
  const user = await findUserOfResetLink(params.token)
  return data({ name: user?.name ?? null }, { status: user ? 200 : 410, headers: PRIVATE_HEADERS })
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, ChooseNewPasswordSchema, { hideFields: SENSITIVE })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const user = await resetPasswordWithLink(params.token, submission.value.newPassword)
    await recordAuditEvent({
      by: { actor: { id: user.id, email: user.email, name: user.name }, clientAddress: context.get(requestInfoContext).clientIp },
      action: 'account.password-reset-by-link',
      target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
    })
  } catch (error) {
    if (!(error instanceof UserRuleError)) throw error
    return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: 410 })
  }
  return redirectWithToast('/login', PASSWORD_RESET_MESSAGES.done, 'success')
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChooseNewPasswordSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  if (loaderData.name === null) {
    return (
      <div className="container section auth-page">
        <h1>Choose a new password</h1>
        <p role="alert">{PASSWORD_RESET_MESSAGES.unusable}</p>
        <p className="auth-page-links">
          <Link to="/forgot-password">Ask for a new link</Link>
          <Link to="/login">Sign in</Link>
        </p>
      </div>
    )
  }
  return (
    <div className="container section auth-page">
      <h1>Choose a new password</h1>
      <p className="muted">Hello {loaderData.name}. Every device signed in to your account will be signed out.</p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <NewPasswordFields newPassword={fields.newPassword} confirmPassword={fields.confirmPassword} />
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Set new password'}
          </button>
        </div>
      </Form>
    </div>
  )
}
