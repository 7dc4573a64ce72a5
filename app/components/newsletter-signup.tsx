import { Form, useNavigation } from 'react-router'
import { TOPIC_LABELS, TOPICS, type Topic } from '~/modules/newsletter/newsletter.topics'
import { ErrorList } from './error-list'
import { HoneypotField } from './honeypot-field'

export interface SignupErrors {
  form?: string[]
  email?: string[]
  firstName?: string[]
  topics?: string[]
}

/** A heading's words as written, a hyphenated one ("e-mail") kept on one line: a phone would break it after the hyphen. */
function WholeWords({ text }: { text: string }) {
  return text.split(/(\S+-\S+)/).map((part, index) =>
    index % 2 === 1 ? (
      <span key={index} className="whole-word">
        {part}
      </span>
    ) : (
      part
    ),
  )
}

/**
 * The e-mail updates sign-up (home, news, calendar, footer, /subscribe): a plain form posting to
 * /subscribe, so it works without JavaScript. `idPrefix` keeps ids unique where two are on a page.
 */
export function NewsletterSignup({
  idPrefix,
  heading = 'Get our e-mail updates',
  headingLevel = 2,
  errors,
  defaultTopics = ['news', 'events'],
  className,
}: {
  idPrefix: string
  heading?: string
  headingLevel?: 2 | 3
  errors?: SignupErrors
  defaultTopics?: readonly Topic[]
  className?: string
}) {
  const navigation = useNavigation()
  const sending = navigation.state !== 'idle' && navigation.formAction === '/subscribe'
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const id = (name: string) => `${idPrefix}-${name}`
  return (
    <section className={className ? `newsletter-signup ${className}` : 'newsletter-signup'} aria-labelledby={id('heading')}>
      <Heading id={id('heading')}>
        <WholeWords text={heading} />
      </Heading>
      <p className="newsletter-signup-intro">
        News, dates and the youth marketplace, a few times a month. We send a link to confirm first.
      </p>
      <Form method="post" action="/subscribe" className="form newsletter-signup-form">
        <div className="field">
          <label className="field-label" htmlFor={id('email')}>
            E-mail
          </label>
          <input
            id={id('email')}
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            className="field-input"
            aria-invalid={errors?.email?.length ? true : undefined}
            aria-describedby={errors?.email?.length ? id('email-errors') : undefined}
          />
          <ErrorList id={id('email-errors')} errors={errors?.email} />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={id('first-name')}>
            First name (optional)
          </label>
          <input id={id('first-name')} name="firstName" autoComplete="given-name" maxLength={60} className="field-input" />
        </div>
        <fieldset className="field newsletter-topics">
          <legend className="field-label">Topics</legend>
          {TOPICS.map((topic) => (
            <div key={topic} className="field-checkbox">
              <input
                type="checkbox"
                id={id(`topic-${topic}`)}
                name="topics"
                value={topic}
                defaultChecked={defaultTopics.includes(topic)}
              />
              <label htmlFor={id(`topic-${topic}`)}>{TOPIC_LABELS[topic]}</label>
            </div>
          ))}
          <ErrorList id={id('topics-errors')} errors={errors?.topics} />
        </fieldset>
        <HoneypotField id={id('website')} />
        <ErrorList errors={errors?.form} variant="form" />
        <div>
          <button type="submit" className="button" disabled={sending}>
            {sending ? 'Signing up...' : 'Sign up'}
          </button>
        </div>
      </Form>
    </section>
  )
}
