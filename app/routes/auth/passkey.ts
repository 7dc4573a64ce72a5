import { data } from 'react-router'
import type { Route } from './+types/passkey'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { passkeySignInOptions } from '~/modules/users/passkeys.server'
import { signInWithPasskey, tooManyAttemptsMessage } from '~/modules/users/sign-in.server'
import { PasskeySignInSchema, TWO_STEP_MESSAGES } from '~/modules/users/two-step.schema'
import { homeFor } from '~/platform/access'
import { safeRedirectPath } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { deviceOf, readSessionId, revokeSession, sessionCookie } from '~/platform/session.server'
import { getSiteOrigin } from '~/platform/site-url.server'

/**
 * Sign-in with a passkey, for the button on /login (which needs JavaScript: the browser's WebAuthn
 * API). `intent=options` gives the challenge; `intent=verify` the browser's answer, and a session.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, PasskeySignInSchema)
  if (submission.status !== 'success') return data({ error: 'The request could not be read.' }, { status: 400 })
  const rp = { origin: getSiteOrigin(request, context), name: (await getSiteSettings()).organisationName }
  const { clientIp, secure } = context.get(requestInfoContext)
  if (submission.value.intent === 'options') {
    const answer = await passkeySignInOptions(rp, clientIp)
    if (answer.limited) {
      return data(
        { error: tooManyAttemptsMessage(answer.retryAfterSeconds) },
        { status: 429, headers: retryAfterHeaders(answer) },
      )
    }
    return { options: answer.options }
  }
  const outcome = await signInWithPasskey({
    rp,
    response: submission.value.response,
    clientIp,
    device: deviceOf(request, clientIp),
  })
  if (!outcome.ok) {
    if (outcome.reason === 'throttled') {
      return data(
        { error: tooManyAttemptsMessage(outcome.retryAfterSeconds) },
        { status: 429, headers: retryAfterHeaders(outcome) },
      )
    }
    return data({ error: TWO_STEP_MESSAGES.passkeyRefused }, { status: 401 })
  }
  if (!('session' in outcome)) throw new Error('a passkey sign-in always starts a session')
  const previous = readSessionId(request)
  if (previous) await revokeSession(previous)
  return data(
    { redirectTo: safeRedirectPath(submission.value.redirectTo, homeFor(outcome.user)) },
    { headers: { 'Set-Cookie': sessionCookie(outcome.session, secure) } },
  )
}
