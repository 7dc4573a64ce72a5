import { data, Form, Link } from 'react-router'
import type { Route } from './+types/confirm-email'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { confirmEmailChange, findEmailChange } from '~/modules/users/email-change.server'
import { EMAIL_CHANGE_MESSAGES } from '~/modules/users/users.schema'
import { UserRuleError } from '~/modules/users/users.service.server'
import { CACHE_PROFILES } from '~/platform/http-caching'
import { requestInfoContext } from '~/platform/request-context'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [
  { title: 'Confirm your new e-mail address' },
  { name: 'robots', content: 'noindex' },
]

// The address holds a secret: no cache keeps the page.
const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

// Opening the link changes nothing (mail programs open links to check them): the button does.
export async function loader({ params }: Route.LoaderArgs) {
  const change = await findEmailChange(params.token)
  return data(
    { change: change ? { name: change.name, newEmail: change.newEmail } : null },
    { status: change ? 200 : 410, headers: PRIVATE_HEADERS },
  )
}

export async function action({ params, context }: Route.ActionArgs) {
  try {
    const change = await confirmEmailChange(params.token, context.get(requestInfoContext).clientIp)
    return redirectWithToast('/login', EMAIL_CHANGE_MESSAGES.done(change.newEmail), 'success')
  } catch (error) {
    if (!(error instanceof UserRuleError)) throw error
    return data({ error: error.message }, { status: 410, headers: PRIVATE_HEADERS })
  }
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const saving = useIsSubmitting()
  const problem = actionData?.error ?? (loaderData.change ? null : EMAIL_CHANGE_MESSAGES.unusable)
  return (
    <div className="container section auth-page">
      <h1>Confirm your new e-mail address</h1>
      {problem || !loaderData.change ? (
        <>
          <p role="alert">{problem}</p>
          <p className="auth-page-links">
            <Link to="/login">Sign in</Link>
          </p>
        </>
      ) : (
        <Form method="post" className="form">
          <p>
            Hello {loaderData.change.name}. Your account will use <strong>{loaderData.change.newEmail}</strong> from now on, to
            sign in and for its e-mails.
          </p>
          <div className="button-row">
            <button type="submit" className="button" disabled={saving}>
              {saving ? 'Saving...' : 'Use this address'}
            </button>
          </div>
        </Form>
      )}
    </div>
  )
}
