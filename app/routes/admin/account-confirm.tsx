import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { BackLink } from '~/components/back-link'
import { ErrorList, Field } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import type { Route } from './+types/account-confirm'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ConfirmItIsYouSchema } from '~/modules/users/users.schema'
import { checkCurrentPassword, UserRuleError } from '~/modules/users/users.service.server'
import { requireAccess, safeRedirectPath } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { declareQueryParams } from '~/platform/query-params'
import { CONFIRMATION_WINDOW_MS, markConfirmed, readSessionId } from '~/platform/session.server'

export const meta: Route.MetaFunction = () => [{ title: 'Confirm it is you | Site admin' }]

export const queryParams = declareQueryParams('redirectTo')

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'account')
  return {
    email: user.email,
    minutes: CONFIRMATION_WINDOW_MS / 60_000,
    redirectTo: safeRedirectPath(queryParams.read(request).redirectTo, '/admin/account'),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'account')
  const submission = await parseFormSubmission(request, ConfirmItIsYouSchema, { hideFields: ['currentPassword'] })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const by = auditSourceOf(user, context)
  const target = { type: 'user' as const, id: user.id, label: `${user.name} <${user.email}>` }
  try {
    await checkCurrentPassword(user.id, submission.value.currentPassword)
  } catch (error) {
    if (!(error instanceof UserRuleError)) throw error
    await recordAuditEvent({ by, action: 'account.confirmation-failed', target })
    return data({ result: submission.reply({ fieldErrors: { currentPassword: [error.message] } }) }, { status: 400 })
  }
  const sessionId = readSessionId(request)
  if (sessionId) await markConfirmed(sessionId)
  await recordAuditEvent({ by, action: 'account.confirmed', target })
  return redirect(safeRedirectPath(submission.value.redirectTo, '/admin/account'))
}

export default function ConfirmItIsYou({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ConfirmItIsYouSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const confirming = useIsSubmitting()
  return (
    <div className="stack">
      <BackLink to="/admin/account">My account</BackLink>
      <h1>Confirm it is you</h1>
      <p className="muted">
        You are about to change how you sign in. To be sure nobody else is using your session, enter your password again. You will
        not be asked again for {loaderData.minutes} minutes.
      </p>
      <section className="card admin-section">
        <Form method="post" className="form" {...getFormProps(form)}>
          <ErrorList id={form.errorId} errors={form.errors} variant="form" />
          {/* Lets a password manager know whose password to fill in. */}
          <input type="hidden" autoComplete="username" value={loaderData.email} />
          <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          <Field
            meta={fields.currentPassword}
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
          />
          <div className="button-row">
            <button type="submit" className="button" disabled={confirming}>
              {confirming ? 'Checking...' : 'Confirm'}
            </button>
          </div>
        </Form>
      </section>
    </div>
  )
}
