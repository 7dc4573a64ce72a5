import { data, Form, Link } from 'react-router'
import type { Route } from './+types/unsubscribe'
import { editHandle } from '~/components/admin-bar'
import { NEWSLETTER_MESSAGES } from '~/modules/newsletter/newsletter.schema'
import { unsubscribe } from '~/modules/newsletter/newsletter.service.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

/** The admin bar's "Edit this page": the list of subscribers. */
export const handle = editHandle(() => ({ section: 'subscribers', path: '/admin/subscribers' }))

export const meta: Route.MetaFunction = () => [{ title: 'Unsubscribe' }, { name: 'robots', content: 'noindex' }]

export function loader() {
  return data(null, { headers: PRIVATE_HEADERS })
}

/**
 * The button below, and the one-click unsubscribe of mail programs (RFC 8058: a POST of
 * `List-Unsubscribe=One-Click` to the List-Unsubscribe address, without any session). The body is not read.
 */
export async function action({ params }: Route.ActionArgs) {
  const done = await unsubscribe(params.token)
  return data({ done }, { status: done ? 200 : 410, headers: PRIVATE_HEADERS })
}

export default function Unsubscribe({ actionData, params }: Route.ComponentProps) {
  return (
    <div className="section">
      <div className="container newsletter-page stack">
        <h1>Unsubscribe</h1>
        {actionData === undefined ? (
          <Form method="post" className="stack">
            <p>Press the button and we send you no more e-mails.</p>
            <div className="button-row">
              <button type="submit" className="button">
                Unsubscribe
              </button>
              <Link to={`/subscribe/topics/${params.token}`} className="button-secondary">
                Change my topics instead
              </Link>
            </div>
          </Form>
        ) : actionData.done ? (
          <p role="status">{NEWSLETTER_MESSAGES.unsubscribed}</p>
        ) : (
          <p role="alert">
            {NEWSLETTER_MESSAGES.unusableLink} <Link to="/subscribe">Sign up</Link>
          </p>
        )}
      </div>
    </div>
  )
}
