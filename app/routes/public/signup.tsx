import { data, Form, redirect, Link } from 'react-router'
import type { Route } from './+types/signup'
import { editHandle } from '~/components/admin-bar'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { getSignupByToken } from '~/modules/events/signups.queries.server'
import { SIGNUP_MESSAGES } from '~/modules/events/signups.schema'
import { cancelSignup } from '~/modules/events/signups.service.server'
import { emailSiteOf } from '~/modules/events/signups.emails.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { formatPlainDate } from '~/platform/dates'
import { redirectWithToast } from '~/platform/toast.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

/**
 * A person's own sign-up, opened by the secret link they got (after signing up, and in their
 * e-mails): what they signed up for, and a button to cancel it.
 */

// The address holds a secret and the page a name: no cache keeps it (the site's Referrer-Policy keeps the path from other sites).
const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal, 'X-Robots-Tag': 'noindex' }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

export const meta: Route.MetaFunction = () => [{ title: 'Your sign-up' }, { name: 'robots', content: 'noindex' }]

/** The admin bar's "Edit this page": the list of who signed up. */
export const handle = editHandle<Route.ComponentProps['loaderData']>(({ signup }) =>
  signup ? { section: 'signups', path: `/admin/events/${encodeURIComponent(signup.eventId)}/signups?date=${signup.date}` } : null,
)

export async function loader({ params }: Route.LoaderArgs) {
  const signup = await getSignupByToken(params.token)
  if (!signup) return data({ signup: null }, { status: 404, headers: PRIVATE_HEADERS })
  return data(
    {
      signup: {
        ...signup,
        dateLabel: formatPlainDate(signup.date),
        eventPath: `/calendar/${encodeURIComponent(signup.eventSlug)}?date=${signup.date}`,
      },
    },
    { headers: PRIVATE_HEADERS },
  )
}

/** Cancelling: the sign-up is deleted for good, and its places go to the waiting list. */
export async function action({ params, context }: Route.ActionArgs) {
  const removed = await cancelSignup(params.token, emailSiteOf(await siteSettingsFor(context)))
  if (!removed) return redirect(`/signups/${params.token}`, 303)
  return redirectWithToast(`/calendar/${encodeURIComponent(removed.eventSlug)}?date=${removed.date}`, SIGNUP_MESSAGES.cancelled)
}

export default function SignupPage({ loaderData }: Route.ComponentProps) {
  const { signup } = loaderData
  const cancelling = useIsSubmitting()
  if (!signup) {
    return (
      <div className="container section signup-page">
        <h1>Your sign-up</h1>
        <p role="alert">{SIGNUP_MESSAGES.gone}</p>
        <p>
          <Link to="/calendar">See the calendar</Link>
        </p>
      </div>
    )
  }
  return (
    <div className="container section signup-page">
      <h1>Your sign-up</h1>
      <p className="signup-status" role="status">
        {signup.status === 'confirmed'
          ? SIGNUP_MESSAGES.confirmed
          : `You are on the waiting list (number ${signup.waitingPosition} in line). We will tell you if a place becomes free.`}
      </p>
      <dl className="event-facts">
        <div>
          <dt>Event</dt>
          <dd>
            <Link to={signup.eventPath}>{signup.eventTitle}</Link>
          </dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd>{signup.dateLabel}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{signup.name}</dd>
        </div>
        <div>
          <dt>People</dt>
          <dd>{signup.partySize}</dd>
        </div>
      </dl>
      <p>Keep this page&apos;s address: it is your link to cancel. Nobody else can see this page.</p>
      <Form method="post">
        <button type="submit" className="button-danger" disabled={cancelling}>
          {cancelling ? 'Cancelling...' : 'Cancel my sign-up'}
        </button>
      </Form>
    </div>
  )
}
