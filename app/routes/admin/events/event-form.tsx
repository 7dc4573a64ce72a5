import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { PublishChoiceFields } from '~/components/publish-choice-fields'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import { ErrorSummary } from '~/components/error-summary'
import { CheckboxField, ErrorList, Field, SelectField } from '~/components/forms'
import { MARKDOWN_HINT, MarkdownEditor } from '~/components/markdown-editor'
import { useIsSubmitting } from '~/components/use-is-submitting'
import {
  EVENT_TYPE_OPTIONS,
  EventSchema,
  REPEAT_COUNT_MAX,
  REPEAT_END_OPTIONS,
  REPEAT_OPTIONS,
  type EventFormValues,
} from '~/modules/events/events.schema'
import { CLOSES_HOURS_BEFORE_MAX, PLACE_LIMIT_MAX, SIGNUP_CONTACT_OPTIONS } from '~/modules/events/signups.schema'

interface EventFormProps {
  lastResult?: SubmissionResult<string[]>
  defaultValue?: EventFormValues
  /** Skipped dates of the series, each with its label ('Saturday, December 26, 2026'). */
  skippedDates?: ReadonlyArray<{ date: string; label: string }>
  timeZone: string
  cancelTo: string
  submitLabel: string
  submittingLabel: string
}

/** The add and edit form of an event: what, when (local time), where, and how it repeats. */
export function EventForm({
  lastResult,
  defaultValue,
  skippedDates = [],
  timeZone,
  cancelTo,
  submitLabel,
  submittingLabel,
}: EventFormProps) {
  const [form, fields] = useForm<EventFormValues>({
    id: 'event',
    lastResult,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EventSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const submitting = useIsSubmitting()
  return (
    <Form method="post" className="form form-with-editor event-form" {...getFormProps(form)}>
      <ErrorSummary form={form} />
      <ErrorList id={form.errorId} errors={form.errors} variant="form" />
      <Field meta={fields.title} label="Title" required />
      <SelectField meta={fields.type} label="Type" options={EVENT_TYPE_OPTIONS} hint="Shown as a tag on the event." />
      <div className="form-pair">
        <Field meta={fields.startDate} type="date" label="Start date" required />
        <Field
          meta={fields.startTime}
          type="time"
          label="Start time (optional)"
          hint={`In the site's time zone (${timeZone}). Leave empty for an all-day event.`}
        />
      </div>
      <div className="form-pair">
        <Field meta={fields.endTime} type="time" label="End time (optional)" />
        <Field
          meta={fields.endDate}
          type="date"
          label="End date (optional)"
          hint="Only if it ends on a later day (for an all-day event: its last day)."
        />
      </div>
      <Field meta={fields.location} label="Location" required />
      <MarkdownEditor
        meta={fields.description}
        label="Description"
        rows={6}
        hint={MARKDOWN_HINT}
        previewClassName="event-description"
        required
      />
      <fieldset className="event-form-repeat">
        <legend>Repeat</legend>
        <div className="form">
          <SelectField
            meta={fields.repeat}
            label="Repeats"
            options={REPEAT_OPTIONS}
            hint="The weekday and date are taken from the start date."
          />
          <SelectField meta={fields.repeatEnds} label="Ends" options={REPEAT_END_OPTIONS} />
          <div className="form-pair">
            <Field meta={fields.repeatUntil} type="date" label="Last date" hint='When it ends "On a date".' />
            <Field
              meta={fields.repeatCount}
              type="number"
              label="Number of times"
              hint='When it ends "After a number of times".'
              min={1}
              max={REPEAT_COUNT_MAX}
              step={1}
            />
          </div>
          {skippedDates.length > 0 ? (
            <fieldset>
              <legend>Skipped dates</legend>
              <p className="field-hint">Clear a box to hold the event on that date again.</p>
              {skippedDates.map(({ date, label }) => (
                <div key={date} className="field-checkbox">
                  <input
                    type="checkbox"
                    id={`${fields.skippedDates.id}-${date}`}
                    name={fields.skippedDates.name}
                    value={date}
                    defaultChecked
                  />
                  <label htmlFor={`${fields.skippedDates.id}-${date}`}>{label}</label>
                </div>
              ))}
            </fieldset>
          ) : null}
          <Field
            meta={fields.skipDate}
            type="date"
            label="Skip a date (optional)"
            hint="A date on which the series does not take place."
          />
        </div>
      </fieldset>
      <fieldset className="event-form-repeat">
        <legend>Sign-ups</legend>
        <div className="form">
          <CheckboxField
            meta={fields.takesSignups}
            label="People can sign up for this event"
            hint="The event's page gets a sign-up form; a repeating event takes sign-ups per date."
          />
          <Field
            meta={fields.signupLimit}
            type="number"
            label="Places per date (optional)"
            hint="People, a family counting as its size. Leave empty for no limit; once full, people join a waiting list."
            min={1}
            max={PLACE_LIMIT_MAX}
            step={1}
          />
          <SelectField meta={fields.signupContact} label="Ask for" options={SIGNUP_CONTACT_OPTIONS} hint="Besides the name." />
          <CheckboxField meta={fields.signupAsksPartySize} label="Ask how many people are coming" />
          <Field
            meta={fields.signupClosesHoursBefore}
            type="number"
            label="Sign-ups close (hours before the start)"
            hint="0 closes them when the event starts."
            min={0}
            max={CLOSES_HOURS_BEFORE_MAX}
            step={1}
          />
        </div>
      </fieldset>
      <PublishChoiceFields fields={fields} timeZone={timeZone} />
      <div className="button-row">
        <button type="submit" className="button" disabled={submitting}>
          {submitting ? submittingLabel : submitLabel}
        </button>
        <Link to={cancelTo} className="button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  )
}
