import type { FieldMetadata } from '@conform-to/react'
import { CheckboxField, Field, SelectField } from '~/components/forms'
import { MARKDOWN_HINT, MarkdownEditor } from '~/components/markdown-editor'
import { MEDIA_CATEGORIES } from '~/modules/gallery/media-categories'

const CATEGORY_OPTIONS = MEDIA_CATEGORIES.map((value) => ({ value, label: value }))

type Meta = FieldMetadata<any, any, string[]>

/** What the upload and the edit form of gallery items share: title, description, category, featured. */
export function MediaDetailsFields({ fields }: { fields: { title: Meta; description: Meta; category: Meta; featured: Meta } }) {
  return (
    <>
      <Field meta={fields.title} label="Title" required />
      <MarkdownEditor meta={fields.description} label="Description" rows={4} hint={MARKDOWN_HINT} required />
      <SelectField meta={fields.category} label="Category" options={CATEGORY_OPTIONS} />
      <CheckboxField
        meta={fields.featured}
        label="Featured"
        hint="Featured items appear under Featured Moments on the home page (the four newest)."
      />
    </>
  )
}
