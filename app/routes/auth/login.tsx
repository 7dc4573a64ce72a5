import { data, redirect } from 'react-router'
import type { Route } from './+types/login'
import { LoginForm } from '~/components/login-form'
import { PasskeySignInButton } from '~/components/passkey-buttons'
import { signInWithPassword, tooManyAttemptsMessage } from '~/modules/users/sign-in.server'
import { pendingSignInCookie } from '~/modules/users/pending-sign-ins.server'
import { LoginSchema } from '~/modules/users/users.schema'
import { homeFor } from '~/platform/access'
import { getOptionalUser, safeRedirectPath } from '~/platform/auth.server'
import { retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { deviceOf, readSessionId, revokeSession, sessionCookie } from '~/platform/session.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { declareQueryParams } from '~/platform/query-params'

export const meta: Route.MetaFunction = () => [{ title: 'Sign in' }, { name: 'robots', content: 'noindex' }]

/** Status and Retry-After of a refused sign-in reach the browser. */
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has('Retry-After') ? actionHeaders : loaderHeaders

export const queryParams = declareQueryParams('redirectTo')

export async function loader({ request, context }: Route.LoaderArgs) {
  const { redirectTo } = queryParams.read(request)
  const user = await getOptionalUser({ request, context })
  if (user) throw redirect(safeRedirectPath(redirectTo, homeFor(user)))
  return { redirectTo: redirectTo ? safeRedirectPath(redirectTo, '') : '' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, LoginSchema, { hideFields: ['password'] })
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: 400 })
  }
  const { clientIp, secure } = context.get(requestInfoContext)
  const { userAgent } = deviceOf(request, clientIp)
  const outcome = await signInWithPassword({ ...submission.value, clientIp, userAgent })
  if (!outcome.ok) {
    const throttled = outcome.reason === 'throttled'
    const message = throttled ? tooManyAttemptsMessage(outcome.retryAfterSeconds) : 'Invalid credentials'
    return data(
      { result: submission.reply({ formErrors: [message] }) },
      throttled ? { status: 429, headers: retryAfterHeaders(outcome) } : { status: 401 },
    )
  }
  // Whatever session this browser had before is ended, not carried over.
  const previous = readSessionId(request)
  if (previous) await revokeSession(previous)
  if ('pending' in outcome) {
    return redirect('/login/two-step', { headers: { 'Set-Cookie': pendingSignInCookie(outcome.pending, secure) } })
  }
  return redirect(safeRedirectPath(submission.value.redirectTo, homeFor(outcome.user)), {
    headers: { 'Set-Cookie': sessionCookie(outcome.session, secure) },
  })
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="container section auth-page">
      <h1>Sign in</h1>
      <p className="muted">Sign in to manage the website.</p>
      <LoginForm redirectTo={loaderData.redirectTo || undefined} lastResult={actionData?.result} />
      <PasskeySignInButton redirectTo={loaderData.redirectTo || undefined} />
    </div>
  )
}
