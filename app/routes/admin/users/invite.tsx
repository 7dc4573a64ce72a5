import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { BackLink } from '~/components/back-link'
import type { Route } from './+types/invite'
import { ErrorList, Field, SelectField } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { invitationUrl, inviteUser } from '~/modules/users/invitations.server'
import { INVITATION_MESSAGES, InviteSchema, ROLE_OPTIONS, ROLES_HINT } from '~/modules/users/users.schema'
import { UserRuleError } from '~/modules/users/users.service.server'
import { requireAccess, requireRecentConfirmation } from '~/platform/auth.server'
import { canSendEmail } from '~/platform/email.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { getSiteOrigin } from '~/platform/site-url.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Invite someone | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'users')
  return { canSendEmail: canSendEmail() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireRecentConfirmation({ request, context }, '/admin/users/invite', 'users')
  const submission = await parseFormSubmission(request, InviteSchema)
  if (submission.status !== 'success') return data({ result: submission.reply(), link: null }, { status: 400 })
  const siteOrigin = getSiteOrigin(request, context)
  try {
    const link = await inviteUser(submission.value, me, siteOrigin)
    await recordAuditEvent({
      by: auditSourceOf(me, context),
      action: 'user.invited',
      target: { type: 'user', id: null, label: submission.value.email },
      detail: { role: submission.value.role, emailed: canSendEmail() },
    })
    if (canSendEmail()) return redirectWithToast('/admin/users', INVITATION_MESSAGES.sent(submission.value.email), 'success')
    // Without e-mail the link is shown once, here, to pass on by hand: only its hash is kept.
    return { result: submission.reply({ resetForm: true }), link: invitationUrl(siteOrigin, link) }
  } catch (error) {
    if (!(error instanceof UserRuleError)) throw error
    const errors = error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] }
    return data({ result: submission.reply(errors), link: null }, { status: 400 })
  }
}

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const sending = useIsSubmitting()
  return (
    <div className="stack">
      <BackLink to="/admin/users">All users</BackLink>
      <h1>Invite someone</h1>
      {actionData?.link ? (
        <section className="card admin-section" aria-labelledby="link-heading">
          <h2 id="link-heading">Invitation link</h2>
          <div className="field">
            <label className="field-label" htmlFor="invitation-link">
              Link for the person you invited
            </label>
            <p id="invitation-link-hint" className="field-hint">
              {INVITATION_MESSAGES.made}
            </p>
            <input
              id="invitation-link"
              className="field-input"
              readOnly
              value={actionData.link}
              aria-describedby="invitation-link-hint"
              onFocus={(e) => e.currentTarget.select()}
            />
          </div>
        </section>
      ) : null}
      <p className="muted">
        {loaderData.canSendEmail
          ? 'They get an e-mail with a link to choose their own name and password. The link works once, within 7 days.'
          : 'This website cannot send e-mail: you get a link to pass on yourself. It works once, within 7 days.'}
      </p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <Field meta={fields.email} label="E-mail" type="email" autoComplete="off" required />
        <SelectField
          meta={fields.role}
          label="Role"
          options={ROLE_OPTIONS}
          placeholder="Choose a role"
          hint={ROLES_HINT}
          required
        />
        <div className="button-row">
          <button type="submit" className="button" disabled={sending}>
            {sending ? 'Inviting...' : loaderData.canSendEmail ? 'Send invitation' : 'Make invitation link'}
          </button>
          <Link to="/admin/users" className="button-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  )
}
