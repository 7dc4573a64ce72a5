import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, Link } from 'react-router'
import type { Route } from './+types/forgot-password'
import { ErrorList, Field } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { requestPasswordReset } from '~/modules/users/password-reset.server'
import { ForgotPasswordSchema, PASSWORD_RESET_MESSAGES } from '~/modules/users/users.schema'
import { canSendEmail } from '~/platform/email.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { minutesToWait, retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { getSiteOrigin } from '~/platform/site-url.server'
import { declareQueryParams } from '~/platform/query-params'

export const queryParams = declareQueryParams('sent')

export const meta: Route.MetaFunction = () => [{ title: 'Forgot your password?' }, { name: 'robots', content: 'noindex' }]

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has('Retry-After') ? actionHeaders : loaderHeaders

export function loader({ request }: Route.LoaderArgs) {
  return { canSendEmail: canSendEmail(), sent: queryParams.read(request).sent === '1' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, ForgotPasswordSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  if (!canSendEmail())
    return data({ result: submission.reply({ formErrors: [PASSWORD_RESET_MESSAGES.noEmail] }) }, { status: 503 })
  const outcome = await requestPasswordReset({
    email: submission.value.email,
    clientIp: context.get(requestInfoContext).clientIp,
    siteOrigin: getSiteOrigin(request, context),
  })
  if (!outcome.ok) {
    const message = PASSWORD_RESET_MESSAGES.tooMany(minutesToWait(outcome.retryAfterSeconds))
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 429, headers: retryAfterHeaders(outcome) })
  }
  return redirect('/forgot-password?sent=1', 303)
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: 'onBlur',
  })
  const sending = useIsSubmitting()
  return (
    <div className="container section auth-page">
      <h1>Forgot your password?</h1>
      {!loaderData.canSendEmail ? (
        <p role="status">{PASSWORD_RESET_MESSAGES.noEmail}</p>
      ) : loaderData.sent ? (
        <p role="status">{PASSWORD_RESET_MESSAGES.sent}</p>
      ) : (
        <>
          <p className="muted">
            Enter the e-mail address you sign in with, and we will send you a link to choose a new password.
          </p>
          <Form method="post" className="form" {...getFormProps(form)}>
            <ErrorList id={form.errorId} errors={form.errors} variant="form" />
            <Field meta={fields.email} label="E-mail" type="email" autoComplete="username" required />
            <div className="button-row">
              <button type="submit" className="button" disabled={sending}>
                {sending ? 'Sending...' : 'Send me a link'}
              </button>
            </div>
          </Form>
        </>
      )}
      <p className="auth-page-links">
        <Link to="/login">Back to sign in</Link>
      </p>
    </div>
  )
}
