import type { FieldMetadata } from '@conform-to/react'
import { Field, SelectField } from '~/components/forms'
import { PUBLISH_CHOICE_OPTIONS } from '~/platform/publication'

type Meta = FieldMetadata<any, any, string[]>

/**
 * The publish part of the article, gallery, event and product forms: draft, published, or
 * scheduled for a day and time on the site's clock (its time zone is named, as volunteers may travel).
 */
export function PublishChoiceFields({
  fields,
  timeZone,
}: {
  fields: { publish: Meta; publishDate: Meta; publishTime: Meta }
  timeZone: string
}) {
  return (
    <fieldset className="publish-choice">
      <legend>Publishing</legend>
      <SelectField
        meta={fields.publish}
        label="Who sees it"
        hint="A draft is seen by administrators only; a scheduled item goes public by itself on the day and time below."
        options={PUBLISH_CHOICE_OPTIONS}
      />
      <div className="publish-choice-when">
        <Field meta={fields.publishDate} type="date" label="Day to publish (when scheduled)" />
        <Field meta={fields.publishTime} type="time" label={`Time (${timeZone})`} />
      </div>
    </fieldset>
  )
}
