import { data, Form, Link } from 'react-router'
import type { Route } from './+types/confirm'
import { editHandle } from '~/components/admin-bar'
import { NEWSLETTER_MESSAGES } from '~/modules/newsletter/newsletter.schema'
import { confirmSubscription } from '~/modules/newsletter/newsletter.service.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

// The address holds a secret: no cache keeps the page, and it says nothing about any address.
const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

/** The admin bar's "Edit this page": the list of subscribers. */
export const handle = editHandle(() => ({ section: 'subscribers', path: '/admin/subscribers' }))

export const meta: Route.MetaFunction = () => [{ title: 'Confirm your subscription' }, { name: 'robots', content: 'noindex' }]

// Opening the link only shows a button: mail scanners that follow links must not confirm for the person.
export function loader() {
  return data(null, { headers: PRIVATE_HEADERS })
}

export async function action({ params }: Route.ActionArgs) {
  const outcome = await confirmSubscription(params.token)
  const status = { confirmed: 200, 'already-confirmed': 200, full: 503, unusable: 410 }[outcome]
  return data({ outcome }, { status, headers: PRIVATE_HEADERS })
}

export default function ConfirmSubscription({ actionData }: Route.ComponentProps) {
  return (
    <div className="section">
      <div className="container newsletter-page stack">
        <h1>Confirm your subscription</h1>
        {actionData === undefined ? (
          <Form method="post" className="stack">
            <p>Press the button to start getting our e-mail updates.</p>
            <div>
              <button type="submit" className="button">
                Confirm my subscription
              </button>
            </div>
          </Form>
        ) : actionData.outcome === 'confirmed' ? (
          <p role="status">{NEWSLETTER_MESSAGES.confirmed}</p>
        ) : actionData.outcome === 'already-confirmed' ? (
          <p role="status">{NEWSLETTER_MESSAGES.alreadyConfirmed}</p>
        ) : actionData.outcome === 'full' ? (
          <p role="alert">{NEWSLETTER_MESSAGES.full}</p>
        ) : (
          <p role="alert">
            {NEWSLETTER_MESSAGES.unusableLink} <Link to="/subscribe">Sign up</Link>
          </p>
        )}
      </div>
    </div>
  )
}
