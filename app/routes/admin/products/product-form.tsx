import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { PublishChoiceFields } from '~/components/publish-choice-fields'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { Form, Link } from 'react-router'
import { CurrentImageList, type CurrentImage } from '~/components/current-image-list'
import { ErrorList, Field, SelectField } from '~/components/forms'
import { MARKDOWN_HINT, MarkdownEditor } from '~/components/markdown-editor'
import { ResumableUpload } from '~/components/resumable-upload'
import { useIsSubmitting } from '~/components/use-is-submitting'
import {
  NAME_AND_DESCRIPTION_REQUIRED,
  PRODUCT_IMAGES_MAX,
  productSchema,
  TOO_MANY_IMAGES_MESSAGE,
  type ProductFormValues,
} from '~/modules/marketplace/marketplace.schema'
import { DEFAULT_PRODUCT_CATEGORY, PRODUCT_CATEGORIES, PRODUCT_CATEGORY_LABELS } from '~/modules/marketplace/product-categories'
import { formatWhatsAppNumber, normaliseWhatsAppNumber } from '~/platform/phone-numbers'
import { acceptOf, fileProblem } from '~/platform/media/image-presets'

interface ProductFormProps {
  lastResult?: SubmissionResult<string[]>
  defaultValue?: Partial<ProductFormValues>
  /** The product's images now (editing). */
  currentImages?: readonly CurrentImage[]
  /** The site's country calling code (digits), for local WhatsApp numbers. */
  countryCode: string
  /** The site's time zone, in which a publish day and time are read. */
  timeZone: string
  submitLabel: string
  submittingLabel: string
}

/** The old site's 'Name and description are required' is said once, under the name, when both are missing. */
function withoutMessageSaidAbove(errors: string[] | undefined, above: string[] | undefined): string[] | undefined {
  return above?.includes(NAME_AND_DESCRIPTION_REQUIRED) ? errors?.filter((e) => e !== NAME_AND_DESCRIPTION_REQUIRED) : errors
}

const CATEGORY_OPTIONS = PRODUCT_CATEGORIES.map((value) => ({ value, label: PRODUCT_CATEGORY_LABELS[value] }))

/**
 * The add and edit form of a product. Images upload while the form is filled in (resumable, so a
 * dropped connection on a phone loses nothing); errors about the whole form appear in a red box
 * at its top.
 */
export function ProductForm({
  lastResult,
  defaultValue,
  currentImages = [],
  countryCode,
  timeZone,
  submitLabel,
  submittingLabel,
}: ProductFormProps) {
  const [form, fields] = useForm({
    lastResult,
    defaultValue: defaultValue ?? { category: DEFAULT_PRODUCT_CATEGORY },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: productSchema(countryCode) }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const [uploading, setUploading] = useState(false)
  const saving = useIsSubmitting()
  const busy = uploading || saving
  return (
    <Form method="post" className="form form-with-editor product-form" {...getFormProps(form)}>
      <ErrorList id={form.errorId} errors={form.errors} variant="form" />
      <Field meta={fields.name} label="Name" required />
      <MarkdownEditor
        meta={fields.description}
        label="Description"
        rows={6}
        required
        hint={MARKDOWN_HINT}
        errors={withoutMessageSaidAbove(fields.description.errors, fields.name.errors)}
      />
      <Field
        meta={fields.price}
        label="Price (optional)"
        type="number"
        step="0.01"
        min="0"
        inputMode="decimal"
        hint="In dollars, e.g. 12.50. Leave it empty when the price is on request."
      />
      <SelectField meta={fields.category} label="Category" options={CATEGORY_OPTIONS} required />
      <Field
        meta={fields.seller}
        label="Seller (optional)"
        hint="A first name or a business name only. Our sellers are young people: never a full name, address, school or phone number."
        autoComplete="off"
      />
      <CurrentImageList current={currentImages} keepName={fields.keepImages.name} removeName={fields.removeImages.name} />
      <ResumableUpload
        name={fields.uploads.name}
        label={currentImages.length > 0 ? 'Add images' : 'Images'}
        hint={`JPG, PNG, GIF or WEBP, at most 10MB each and ${PRODUCT_IMAGES_MAX} images per product. The first image is shown on the card. Pictures are cropped square and their location data is removed.`}
        accept={acceptOf('product')}
        multiple
        refuse={(file) => fileProblem(file, 'product')}
        maxFiles={{ count: Math.max(0, PRODUCT_IMAGES_MAX - currentImages.length), message: TOO_MANY_IMAGES_MESSAGE }}
        errors={fields.uploads.errors}
        onBusyChange={setUploading}
      />
      <Field
        meta={fields.facebookLink}
        label="Facebook Link (optional)"
        type="url"
        hint="The seller's Facebook page or post, e.g. https://www.facebook.com/yourpage"
      />
      <Field
        meta={fields.instagramLink}
        label="Instagram Link (optional)"
        type="url"
        hint="e.g. https://www.instagram.com/yourpage"
      />
      <Field
        meta={fields.whatsappNumber}
        label="WhatsApp number (optional)"
        type="tel"
        autoComplete="off"
        hint="As it is dialled here, e.g. 268 555 0100 or 555 0100; from abroad, with + and the country code."
        note={<WhatsAppNumberNote typed={fields.whatsappNumber.value ?? ''} countryCode={countryCode} />}
      />
      <PublishChoiceFields fields={fields} timeZone={timeZone} />
      <div className="button-row">
        <button type="submit" className="button product-form-submit" disabled={busy}>
          {saving ? submittingLabel : uploading ? 'Uploading images...' : submitLabel}
        </button>
        <Link to="/admin/products" className="button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  )
}

/** The international number chats will go to, as the server will store it: shown while typing, and after a save. */
function WhatsAppNumberNote({ typed, countryCode }: { typed: string; countryCode: string }) {
  const digits = normaliseWhatsAppNumber(typed, countryCode)
  if (digits === null || digits === 'invalid') return null
  return (
    <>
      Chats will go to <strong>{formatWhatsAppNumber(digits)}</strong>
    </>
  )
}
