import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { ErrorList, Field } from '~/components/forms'
import { HoneypotField } from '~/components/honeypot-field'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { SIGNUP_LIMITS, SIGNUP_MESSAGES, SignUpSchema } from '~/modules/events/signups.schema'
import type { SignupState } from '~/modules/events/signups.queries.server'

/** How many places are left, as people say it. */
function placesText(state: SignupState): string {
  if (state.placesLeft === null) return 'Places are not limited.'
  if (state.placesLeft === 0) return 'This date is full. Sign up to join the waiting list.'
  return state.placesLeft === 1 ? '1 place left.' : `${state.placesLeft} places left.`
}

interface SignupSectionProps {
  state: SignupState
  /** The event's address for this date. */
  action: string
  date: string
  dateLabel: string
  lastResult?: SubmissionResult<string[]>
}

/**
 * "Sign up" for one date of an event: places left, and the waiting list once full. Posts normally
 * without JavaScript.
 */
export function SignupSection({ state, action, date, dateLabel, lastResult }: SignupSectionProps) {
  const sending = useIsSubmitting()
  const [form, fields] = useForm({
    id: 'signup',
    defaultValue: { partySize: 1 },
    lastResult: sending ? undefined : lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SignUpSchema }),
  })
  return (
    <section className="event-section event-signup" aria-labelledby="event-signup">
      <h2 id="event-signup">Sign up</h2>
      {state.closed ? (
        <p>Sign-ups for {dateLabel} are closed.</p>
      ) : state.opensLater ? (
        <p>{SIGNUP_MESSAGES.tooFarAhead}</p>
      ) : (
        <>
          <p className="event-signup-places">
            <strong>{placesText(state)}</strong>
          </p>
          <Form method="post" action={action} className="form" preventScrollReset {...getFormProps(form)}>
            <input type="hidden" name={fields.date.name} value={date} />
            <Field meta={fields.name} label="Name" autoComplete="name" maxLength={SIGNUP_LIMITS.name} />
            {state.contact !== 'whatsapp' ? (
              <Field
                meta={fields.email}
                label={state.contact === 'either' ? 'E-mail (or give a WhatsApp number)' : 'E-mail'}
                type="email"
                autoComplete="email"
                maxLength={SIGNUP_LIMITS.email}
                hint="We send your confirmation and a reminder the day before."
              />
            ) : null}
            {state.contact !== 'email' ? (
              <Field
                meta={fields.whatsapp}
                label={state.contact === 'either' ? 'WhatsApp number (or give an e-mail)' : 'WhatsApp number'}
                type="tel"
                autoComplete="tel"
                maxLength={SIGNUP_LIMITS.whatsapp}
              />
            ) : null}
            {state.asksPartySize ? (
              <Field
                meta={fields.partySize}
                label="How many people (you included)"
                type="number"
                min={1}
                max={state.partySizeMax}
                step={1}
              />
            ) : null}
            <HoneypotField id="signup-website" />
            <ErrorList id={form.errorId} errors={form.errors} variant="form" />
            <div>
              <button type="submit" className="button" disabled={sending}>
                {sending ? 'Signing up...' : state.full ? 'Join the waiting list' : 'Sign up'}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  )
}
