import { data, redirect } from 'react-router'
import type { Route } from './+types/index'
import { editHandle } from '~/components/admin-bar'
import { NewsletterSignup, type SignupErrors } from '~/components/newsletter-signup'
import { NEWSLETTER_MESSAGES, SubscribeSchema } from '~/modules/newsletter/newsletter.schema'
import { subscribe } from '~/modules/newsletter/newsletter.service.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { getSiteOrigin } from '~/platform/site-url.server'
import { oneTimeCookie, takeOneTimeCookie } from '~/platform/toast.server'
import { pageMeta } from '~/platform/seo'

// Set by the redirect after a sign-up and read once: the address alone shows no thank-you.
const SENT_COOKIE = 'subscribe-sent'

/** The admin bar's "Edit this page": the list of subscribers. */
export const handle = editHandle(() => ({ section: 'subscribers', path: '/admin/subscribers' }))

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: 'E-mail updates', description: 'Sign up for news, dates and the youth marketplace by e-mail.' })

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has('Retry-After') ? actionHeaders : loaderHeaders

export function loader({ request }: Route.LoaderArgs) {
  const { value, headers } = takeOneTimeCookie(request, SENT_COOKIE)
  return data({ sent: value === '1' }, { headers })
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, SubscribeSchema)
  if (submission.status !== 'success') return data({ errors: signupErrorsOf(submission.error) }, { status: 400 })
  const received = await subscribe(submission.value, {
    clientKey: context.get(requestInfoContext).clientIp,
    origin: getSiteOrigin(request, context),
  })
  if (received.outcome === 'rate-limited') {
    return data({ errors: { form: [NEWSLETTER_MESSAGES.tooMany] } }, { status: 429, headers: retryAfterHeaders(received) })
  }
  return redirect('/subscribe#signed-up', { status: 303, headers: { 'Set-Cookie': oneTimeCookie(SENT_COOKIE, '1') } })
}

function signupErrorsOf(error: Record<string, string[] | null> | null | undefined): SignupErrors {
  const of = (name: string) => error?.[name] ?? undefined
  return { form: of(''), email: of('email'), firstName: of('firstName'), topics: of('topics') }
}

export default function Subscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="section">
      <div className="container newsletter-page stack">
        <h1>E-mail updates</h1>
        {loaderData.sent ? (
          <p id="signed-up" role="status" className="newsletter-thanks">
            {NEWSLETTER_MESSAGES.checkYourInbox}
          </p>
        ) : (
          <NewsletterSignup idPrefix="subscribe" heading="Sign up" errors={actionData?.errors} className="card" />
        )}
        <p className="muted">
          We keep your address, first name and topics only to send what you chose. Every e-mail has a link to change your topics
          or unsubscribe at once; ask us and we delete your address for good.
        </p>
      </div>
    </div>
  )
}
