import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, Link } from 'react-router'
import type { Route } from './+types/join'
import { ErrorList, Field, NewPasswordFields } from '~/components/forms'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { recordAuditEvent } from '~/modules/audit/audit.service.server'
import { findInvitation, joinWithInvitation } from '~/modules/users/invitations.server'
import { INVITATION_MESSAGES, JoinSchema, ROLE_LABELS } from '~/modules/users/users.schema'
import { UserRuleError } from '~/modules/users/users.service.server'
import { homeFor } from '~/platform/access'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { requestInfoContext } from '~/platform/request-context'
import { createSession, deviceOf, readSessionId, revokeSession, sessionCookie } from '~/platform/session.server'
import { pendingSignInCookie, startPendingSignIn, stepAfterPassword } from '~/modules/users/pending-sign-ins.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

export const meta: Route.MetaFunction = () => [{ title: 'Join the website team' }, { name: 'robots', content: 'noindex' }]

// The address holds a secret: no cache keeps the page.
const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

const SENSITIVE = ['newPassword', 'confirmPassword']

export async function loader({ params }: Route.LoaderArgs) {
  const invitation = await findInvitation(params.token)
  const offer = invitation ? { email: invitation.email, role: ROLE_LABELS[invitation.role] } : null
  return data({ invitation: offer }, { status: invitation ? 200 : 410, headers: PRIVATE_HEADERS })
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, JoinSchema, { hideFields: SENSITIVE })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { clientIp, secure } = context.get(requestInfoContext)
  let user
  try {
    user = await joinWithInvitation(params.token, { name: submission.value.name, password: submission.value.newPassword })
  } catch (error) {
    if (!(error instanceof UserRuleError)) throw error
    return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: 410 })
  }
  await recordAuditEvent({
    by: { actor: user, clientAddress: clientIp },
    action: 'user.joined',
    target: { type: 'user', id: user.id, label: `${user.name} <${user.email}>` },
    detail: { role: user.role },
  })
  // Whatever session this browser had before is ended, not carried over.
  const previous = readSessionId(request)
  if (previous) await revokeSession(previous)
  // A role that requires two-step sign-in sets it up before the first session, as at sign-in.
  const step = await stepAfterPassword(user)
  if (step !== 'session') {
    const pending = await startPendingSignIn(user.id, step, homeFor(user))
    return redirect('/login/two-step', { headers: { 'Set-Cookie': pendingSignInCookie(pending, secure) } })
  }
  const session = await createSession(user.id, deviceOf(request, clientIp))
  return redirect(homeFor(user), { headers: { 'Set-Cookie': sessionCookie(session, secure) } })
}

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: JoinSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const saving = useIsSubmitting()
  const { invitation } = loaderData
  if (!invitation) {
    return (
      <div className="container section auth-page">
        <h1>Join the website team</h1>
        <p role="alert">{INVITATION_MESSAGES.unusable}</p>
        <p className="auth-page-links">
          <Link to="/login">Sign in</Link>
        </p>
      </div>
    )
  }
  return (
    <div className="container section auth-page">
      <h1>Join the website team</h1>
      <p className="muted">
        You are invited as {invitation.role}. You will sign in with {invitation.email}.
      </p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <Field meta={fields.name} label="Your name" autoComplete="name" required />
        <NewPasswordFields
          newPassword={fields.newPassword}
          confirmPassword={fields.confirmPassword}
          labels={{ newPassword: 'Choose a password', confirmPassword: 'Repeat the password' }}
        />
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Joining...' : 'Join'}
          </button>
        </div>
      </Form>
    </div>
  )
}
