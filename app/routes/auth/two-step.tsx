import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { data, Form, redirect, Link } from 'react-router'
import type { Route } from './+types/two-step'
import { ErrorList, Field } from '~/components/forms'
import { AuthenticatorSetup, RecoveryCodes } from '~/components/two-step'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { getSiteSettings } from '~/modules/settings/settings.queries.server'
import { completeSignIn } from '~/modules/users/sign-in.server'
import { SecondStepSchema, TWO_STEP_MESSAGES } from '~/modules/users/two-step.schema'
import { authenticatorQrSvg, beginAuthenticatorSetup, getTwoStepStatus } from '~/modules/users/two-step.server'
import { clearedPendingSignInCookie, getPendingSignIn } from '~/modules/users/pending-sign-ins.server'
import { minutesToWait, retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { sessionCookie } from '~/platform/session.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

export const meta: Route.MetaFunction = () => [{ title: 'Two-step sign-in' }, { name: 'robots', content: 'noindex' }]

// A pending sign-in's page (the authenticator's secret while it is set up) is never stored.
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers(actionHeaders.has('Retry-After') ? actionHeaders : loaderHeaders)
  headers.set('Cache-Control', CACHE_PROFILES.personal)
  return headers
}

/**
 * The second step of a sign-in whose password was right (see modules/users/two-step.server.ts):
 * a code from the authenticator app or a recovery code; or, when the person's role requires
 * two-step sign-in and they have none yet, setting up the app. Nothing else is open until then.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const pending = await getPendingSignIn(request)
  // Not a redirect: after the setup's last step ends the pending sign-in, this page still shows the recovery codes.
  if (!pending) return { expired: true, setup: null }
  if (pending.purpose === 'second-step') return { expired: false, setup: null }
  let status = await getTwoStepStatus(pending.user.id)
  if (!status.pendingSecret) {
    await beginAuthenticatorSetup(pending.user.id)
    status = await getTwoStepStatus(pending.user.id)
  }
  const secret = status.pendingSecret ?? ''
  const { organisationName } = await getSiteSettings()
  return {
    expired: false,
    setup: { secret, qrSvg: await authenticatorQrSvg({ secret, issuer: organisationName, accountName: pending.user.email }) },
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const pending = await getPendingSignIn(request)
  const submission = await parseFormSubmission(request, SecondStepSchema, { hideFields: ['code'] })
  if (!pending)
    return data({ result: submission.reply({ formErrors: [TWO_STEP_MESSAGES.expired] }), recoveryCodes: null }, { status: 401 })
  if (submission.status !== 'success') return data({ result: submission.reply(), recoveryCodes: null }, { status: 400 })
  const { clientIp, secure } = context.get(requestInfoContext)
  const outcome = await completeSignIn(request, pending, { code: submission.value.code, clientIp })
  if (!outcome.ok) {
    if (outcome.reason === 'throttled') {
      const message = TWO_STEP_MESSAGES.tooMany(minutesToWait(outcome.retryAfterSeconds))
      return data(
        { result: submission.reply({ formErrors: [message] }), recoveryCodes: null },
        { status: 429, headers: retryAfterHeaders(outcome) },
      )
    }
    const wrong = pending.purpose === 'setup' ? TWO_STEP_MESSAGES.wrongSetupCode : TWO_STEP_MESSAGES.wrongCode
    const message = outcome.reason === 'expired' ? TWO_STEP_MESSAGES.expired : wrong
    return data({ result: submission.reply({ formErrors: [message] }), recoveryCodes: null }, { status: 401 })
  }
  const cookies = new Headers()
  cookies.append('Set-Cookie', sessionCookie(outcome.session, secure))
  cookies.append('Set-Cookie', clearedPendingSignInCookie(secure))
  // New recovery codes are shown once, on this answer, before the person goes on.
  if (outcome.recoveryCodes)
    return data({ result: null, recoveryCodes: outcome.recoveryCodes, next: outcome.redirectTo }, { headers: cookies })
  return redirect(outcome.redirectTo, { headers: cookies })
}

export default function TwoStep({ loaderData, actionData }: Route.ComponentProps) {
  if (actionData?.recoveryCodes) {
    return (
      <div className="container section auth-page stack">
        <h1>Two-step sign-in is on</h1>
        <RecoveryCodes codes={actionData.recoveryCodes} />
        <div className="button-row">
          <Link to={'next' in actionData ? actionData.next : '/admin'} className="button" reloadDocument>
            I have kept my codes, continue
          </Link>
        </div>
      </div>
    )
  }
  if (loaderData.expired) {
    return (
      <div className="container section auth-page">
        <h1>Two-step sign-in</h1>
        <p>{TWO_STEP_MESSAGES.expired}</p>
        <div className="button-row">
          <Link to="/login" className="button">
            Sign in
          </Link>
        </div>
      </div>
    )
  }
  const result = actionData?.result ?? undefined
  if (loaderData.setup) {
    return (
      <div className="container section auth-page">
        <h1>Set up two-step sign-in</h1>
        <p>Your account must use two-step sign-in: besides your password, you will enter a code from an app on your phone.</p>
        <AuthenticatorSetup qrSvg={loaderData.setup.qrSvg} secret={loaderData.setup.secret} lastResult={result} />
        <CancelLink />
      </div>
    )
  }
  return <SecondStepForm lastResult={result} />
}

function SecondStepForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({ lastResult, shouldValidate: 'onSubmit' })
  const checking = useIsSubmitting()
  return (
    <div className="container section auth-page">
      <h1>Two-step sign-in</h1>
      <p>
        Enter the six-digit code your authenticator app shows for this site. Lost your phone? Enter one of your recovery codes
        instead.
      </p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <ErrorList id={form.errorId} errors={form.errors} variant="form" />
        <Field
          meta={fields.code}
          label="Code"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
        />
        <div className="button-row">
          <button type="submit" className="button" disabled={checking}>
            {checking ? 'Checking...' : 'Sign in'}
          </button>
        </div>
      </Form>
      <CancelLink />
    </div>
  )
}

function CancelLink() {
  return (
    <div className="button-row two-step-cancel">
      <Link to="/login" className="button-secondary">
        Cancel and go back to sign in
      </Link>
    </div>
  )
}
