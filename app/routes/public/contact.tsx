import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, redirect, Link } from 'react-router'
import type { Route } from './+types/contact'
import { editHandle } from '~/components/admin-bar'
import { CONTACT_LIMITS, CONTACT_SUBJECT_LABELS, CONTACT_SUBJECTS, ContactSchema } from '~/modules/inbox/contact.schema'
import { HoneypotField } from '~/components/honeypot-field'
import { receiveContactMessage } from '~/modules/inbox/inbox.service.server'
import { logger } from '~/platform/logger.server'
import { pageMeta } from '~/platform/seo'
import { retryAfterHeaders } from '~/platform/rate-limit.server'
import { requestInfoContext } from '~/platform/request-context'
import { oneTimeCookie, takeOneTimeCookie } from '~/platform/toast.server'
import { telHref } from '~/components/contact-links'
import { ErrorList, Field, SelectField, TextareaField } from '~/components/forms'
import { useRootData } from '~/components/root-data'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { parseFormSubmission } from '~/platform/form-submission.server'

const SUCCESS_TEXT = 'Thank you for your message. We will get back to you soon!'
const FAILURE_TEXT = 'Sorry, there was a problem submitting your message. Please try again later.'
const TOO_MANY_TEXT = 'Too many requests. You have sent several messages already; please try again later.'
const SENT_URL = '/contact?sent=1#message-form'
// Set by the redirect after a submission and read once: the address alone shows no thank-you.
const SENT_COOKIE = 'contact-sent'
const CONTACT_CONSTRAINT = getZodConstraint(ContactSchema)
const SUBJECT_OPTIONS = CONTACT_SUBJECTS.map((value) => ({ value, label: CONTACT_SUBJECT_LABELS[value] }))

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: 'Contact Us',
    description:
      'Call, e-mail or send us a message: questions, volunteering, donations and requests for assistance are all welcome.',
  })

// A refused (rate-limited) post says when to try again.
export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has('Retry-After') ? actionHeaders : loaderHeaders

/** The admin bar's "Edit this page". */
export const handle = editHandle(() => ({ section: 'settings', path: '/admin/settings' }))

export function loader({ request }: Route.LoaderArgs) {
  const { value, headers } = takeOneTimeCookie(request, SENT_COOKIE)
  return data({ sent: value === '1' }, { headers })
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = await parseFormSubmission(request, ContactSchema)
  if (submission.status !== 'success') {
    return data({ result: submission.reply() }, { status: 400 })
  }
  const { clientIp } = context.get(requestInfoContext)
  try {
    const received = await receiveContactMessage(submission.value, { clientKey: clientIp })
    if (received.outcome === 'rate-limited') {
      return data(
        { result: submission.reply({ formErrors: [TOO_MANY_TEXT] }) },
        { status: 429, headers: retryAfterHeaders(received) },
      )
    }
  } catch (error) {
    logger.error({ err: error }, 'contact message could not be stored')
    return data({ result: submission.reply({ formErrors: [FAILURE_TEXT] }) }, { status: 503 })
  }
  return redirect(SENT_URL, { status: 303, headers: { 'Set-Cookie': oneTimeCookie(SENT_COOKIE, '1') } })
}

/** A dropped connection on a phone must not end on an error page: keep the form and say so. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const formData = await request.clone().formData()
  try {
    return await serverAction()
  } catch (error) {
    if (error instanceof Response) throw error // the redirect after success
    return { result: parseWithZod(formData, { schema: ContactSchema }).reply({ formErrors: [FAILURE_TEXT] }) }
  }
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { settings } = useRootData()
  return (
    <>
      <header className="section section-muted contact-header">
        <div className="container">
          <h1>Contact Us</h1>
          <p className="lead">
            Questions, ideas, or want to get involved? Call, write, or send us a message and we will get back to you.
          </p>
        </div>
      </header>
      <div className="section">
        <div className="container contact-layout">
          <section aria-labelledby="contact-details-heading" className="contact-details">
            <h2 id="contact-details-heading">Get in Touch</h2>
            <dl className="contact-list">
              {settings.phone ? (
                <div>
                  <dt>Phone</dt>
                  <dd>
                    <a href={telHref(settings.phone)}>{settings.phone}</a>
                  </dd>
                </div>
              ) : null}
              {settings.email ? (
                <div>
                  <dt>E-mail</dt>
                  <dd>
                    <a href={`mailto:${settings.email}`}>{settings.email}</a>
                  </dd>
                </div>
              ) : null}
              {settings.location ? (
                <div>
                  <dt>Location</dt>
                  <dd>{settings.location}</dd>
                </div>
              ) : null}
              {settings.distributionHours ? (
                <div>
                  <dt>Distribution hours</dt>
                  <dd className="contact-hours">{settings.distributionHours}</dd>
                </div>
              ) : null}
            </dl>
            <div className="card contact-support">
              <h3>Want to help?</h3>
              <p>Donations, volunteering and material gifts all make a difference.</p>
              <Link to="/support" className="button-secondary">
                Ways to support our mission
              </Link>
            </div>
          </section>
          <section aria-labelledby="message-form-heading" id="message-form" className="card contact-form-card">
            <MessageForm sent={loaderData.sent} lastResult={actionData?.result} />
          </section>
        </div>
      </div>
    </>
  )
}

function MessageForm({ sent, lastResult }: { sent: boolean; lastResult?: SubmissionResult<string[]> }) {
  return (
    <>
      <h2 id="message-form-heading">Send Us a Message</h2>
      {sent ? <ThankYou /> : <ContactForm lastResult={lastResult} />}
    </>
  )
}

function ThankYou() {
  const ref = useRef<HTMLParagraphElement>(null)
  // After a submission with JavaScript the page does not reload: move focus so the outcome is announced.
  useEffect(() => ref.current?.focus(), [])
  return (
    <>
      <p ref={ref} tabIndex={-1} role="status" className="contact-thanks">
        {SUCCESS_TEXT}
      </p>
      <p>
        <Link to="/contact">Send another message</Link>
      </p>
    </>
  )
}

function ContactForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const sending = useIsSubmitting()
  const [form, fields] = useForm({
    id: 'contact',
    lastResult: sending ? undefined : lastResult,
    constraint: CONTACT_CONSTRAINT,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ContactSchema }),
  })
  return (
    <Form method="post" action="/contact" className="form" {...getFormProps(form)}>
      <Field meta={fields.name} label="Name" autoComplete="name" maxLength={CONTACT_LIMITS.name} />
      <Field meta={fields.email} label="E-mail" type="email" autoComplete="email" maxLength={CONTACT_LIMITS.email} />
      <Field meta={fields.phone} label="Phone (optional)" type="tel" autoComplete="tel" maxLength={CONTACT_LIMITS.phone} />
      <SelectField meta={fields.subject} label="Subject" placeholder="Choose a subject" options={SUBJECT_OPTIONS} />
      <TextareaField meta={fields.message} label="Message" rows={6} maxLength={CONTACT_LIMITS.message} />
      <HoneypotField id="contact-website" />
      <ErrorList id={form.errorId} errors={form.errors} variant="form" />
      <div>
        <button type="submit" className="button" disabled={sending}>
          {sending ? 'Sending...' : 'Send Message'}
        </button>
      </div>
    </Form>
  )
}
