import { data, Form, Link } from 'react-router'
import type { Route } from './+types/topics'
import { editHandle } from '~/components/admin-bar'
import { ErrorList } from '~/components/forms'
import { NEWSLETTER_MESSAGES, TOPIC_LABELS, TOPICS, TopicsSchema, topicsOf } from '~/modules/newsletter/newsletter.schema'
import { changeTopics, findSubscriberByLink } from '~/modules/newsletter/newsletter.service.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { CACHE_PROFILES } from '~/platform/http-caching'

const PRIVATE_HEADERS = { 'Cache-Control': CACHE_PROFILES.personal }
export const headers: Route.HeadersFunction = () => PRIVATE_HEADERS

/** The admin bar's "Edit this page": the list of subscribers. */
export const handle = editHandle(() => ({ section: 'subscribers', path: '/admin/subscribers' }))

export const meta: Route.MetaFunction = () => [{ title: 'Your topics' }, { name: 'robots', content: 'noindex' }]

// Shows the topics only, never the address: whoever holds a forwarded e-mail learns nothing more.
export async function loader({ params }: Route.LoaderArgs) {
  const subscriber = await findSubscriberByLink(params.token)
  const usable = subscriber !== null && subscriber.state !== 'unsubscribed'
  return data({ topics: usable ? topicsOf(subscriber) : null }, { status: usable ? 200 : 410, headers: PRIVATE_HEADERS })
}

export async function action({ request, params }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, TopicsSchema)
  if (submission.status !== 'success') {
    return data(
      { saved: false, errors: submission.error?.topics ?? [NEWSLETTER_MESSAGES.noTopics] },
      { status: 400, headers: PRIVATE_HEADERS },
    )
  }
  const saved = await changeTopics(params.token, submission.value.topics)
  return data(
    { saved, errors: saved ? [] : [NEWSLETTER_MESSAGES.unusableLink] },
    { status: saved ? 200 : 410, headers: PRIVATE_HEADERS },
  )
}

export default function Topics({ loaderData, actionData, params }: Route.ComponentProps) {
  const { topics } = loaderData
  if (topics === null) {
    return (
      <div className="section">
        <div className="container newsletter-page stack">
          <h1>Your topics</h1>
          <p role="alert">
            {NEWSLETTER_MESSAGES.unusableLink} <Link to="/subscribe">Sign up</Link>
          </p>
        </div>
      </div>
    )
  }
  return (
    <div className="section">
      <div className="container newsletter-page stack">
        <h1>Your topics</h1>
        {actionData?.saved ? <p role="status">{NEWSLETTER_MESSAGES.topicsSaved}</p> : null}
        <Form method="post" className="form card">
          <fieldset className="field newsletter-topics">
            <legend className="field-label">E-mail me about</legend>
            {TOPICS.map((topic) => (
              <div key={topic} className="field-checkbox">
                <input
                  type="checkbox"
                  id={`topic-${topic}`}
                  name="topics"
                  value={topic}
                  defaultChecked={topics.includes(topic)}
                />
                <label htmlFor={`topic-${topic}`}>{TOPIC_LABELS[topic]}</label>
              </div>
            ))}
            <ErrorList errors={actionData?.errors} />
          </fieldset>
          <div className="button-row">
            <button type="submit" className="button">
              Save my topics
            </button>
            <Link to={`/subscribe/unsubscribe/${params.token}`} className="button-secondary">
              Unsubscribe from everything
            </Link>
          </div>
        </Form>
      </div>
    </div>
  )
}
