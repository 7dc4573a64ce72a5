import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import type { Route } from './+types/account-details'
import { BackLink } from '~/components/back-link'
import { ErrorList, Field } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { requestEmailChange } from '~/modules/users/email-change.server'
import { ChangeOwnDetailsSchema, EMAIL_CHANGE_MESSAGES } from '~/modules/users/users.schema'
import { checkCurrentPassword, renameUser, UserRuleError } from '~/modules/users/users.service.server'
import { requireAccess } from '~/platform/auth.server'
import { canSendEmail } from '~/platform/email.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Your name and e-mail | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAccess({ request, context }, 'account')
  return { name: user.name, email: user.email, canCheckAddresses: canSendEmail() }
}

function minutes(seconds: number): string {
  const count = Math.max(1, Math.ceil(seconds / 60))
  return count === 1 ? '1 minute' : `${count} minutes`
}

/** A new name is taken at once; a new address once the link sent to it is opened. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'account')
  const submission = await parseFormSubmission(request, ChangeOwnDetailsSchema, { hideFields: ['currentPassword'] })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { name, email, currentPassword } = submission.value
  const by = auditSourceOf(user, context)
  const fieldError = (field: string, message: string) =>
    data({ result: submission.reply({ fieldErrors: { [field]: [message] } }) }, { status: 400 })
  const said: string[] = []
  try {
    if (email !== user.email) {
      if (!canSendEmail()) return fieldError('email', EMAIL_CHANGE_MESSAGES.noEmail)
      if (!currentPassword) return fieldError('currentPassword', EMAIL_CHANGE_MESSAGES.passwordNeeded)
      await checkCurrentPassword(user.id, currentPassword)
      const asked = await requestEmailChange(user, email, { siteOrigin: getSiteOrigin(request, context), by })
      if (!asked.ok) return fieldError('email', EMAIL_CHANGE_MESSAGES.tooMany(minutes(asked.retryAfterSeconds)))
      said.push(EMAIL_CHANGE_MESSAGES.sent(email))
    }
  } catch (error) {
    if (!(error instanceof UserRuleError) || !error.field) throw error
    return fieldError(error.field, error.message)
  }
  if (name !== user.name) {
    await renameUser(user.id, name)
    await recordAuditEvent({
      by,
      action: 'account.name-changed',
      target: { type: 'user', id: user.id, label: `${name} <${user.email}>` },
      detail: { from: user.name, to: name },
    })
    said.unshift(`Your name is now ${name}.`)
  }
  return redirectWithToast('/admin/account', said.join(' ') || 'Nothing was changed.')
}

export default function AccountDetails({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { name: loaderData.name, email: loaderData.email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeOwnDetailsSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  return (
    <div className="stack">
      <BackLink to="/admin/account">My account</BackLink>
      <h1>Your name and e-mail</h1>
      <Form method="post" className="form card admin-section" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <Field
          meta={fields.name}
          label="Name"
          autoComplete="name"
          hint="How the site greets you in its e-mails and names you in invitations and the audit log."
          required
        />
        <Field
          meta={fields.email}
          label="E-mail"
          type="email"
          autoComplete="email"
          hint={
            loaderData.canCheckAddresses
              ? 'You sign in with it. A new address is used once you open the link we send to it; the old one is told.'
              : 'You sign in with it. This website cannot send e-mail, so it cannot check a new address.'
          }
          required
        />
        <Field
          meta={fields.currentPassword}
          label="Current password (to change your e-mail)"
          type="password"
          autoComplete="current-password"
        />
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </button>
        </div>
      </Form>
    </div>
  )
}
