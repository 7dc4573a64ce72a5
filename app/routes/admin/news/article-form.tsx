import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import { ErrorList, Field } from '~/components/forms'
import { ImageField } from '~/components/image-field'
import { MARKDOWN_HINT, MarkdownEditor } from '~/components/markdown-editor'
import { PublishChoiceFields } from '~/components/publish-choice-fields'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { ArticleSchema, type ArticleFormValues } from '~/modules/news/news.schema'
import type { ResponsiveImageData } from '~/platform/media/image-types'

interface ArticleFormProps {
  lastResult?: SubmissionResult<string[]>
  defaultValue?: { title: string; content: string; imageAlt: string; publish: string; publishDate: string; publishTime: string }
  /** The site's time zone, in which a publish day and time are read. */
  timeZone: string
  /** The image the article has now (editing). */
  currentImage?: ResponsiveImageData | null
  submitLabel: string
  submittingLabel: string
}

/** The add and edit form of an article: title, Markdown text, and an optional image. */
export function ArticleForm({
  lastResult,
  defaultValue,
  currentImage,
  timeZone,
  submitLabel,
  submittingLabel,
}: ArticleFormProps) {
  const [form, fields] = useForm<ArticleFormValues>({
    lastResult,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ArticleSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const submitting = useIsSubmitting()
  return (
    <Form method="post" encType="multipart/form-data" className="form form-with-editor" {...getFormProps(form)}>
      <ErrorList id={form.errorId} errors={form.errors} variant="form" />
      <Field meta={fields.title} label="Title" required />
      <MarkdownEditor
        meta={fields.content}
        label="Content"
        rows={14}
        previewClassName="news-article-text"
        hint={MARKDOWN_HINT}
        required
      />
      <ImageField
        meta={fields.image}
        removeMeta={fields.removeImage}
        current={currentImage}
        preset="article"
        label={currentImage ? 'Replace the image (optional)' : 'Image (optional)'}
        hint="JPG, PNG, GIF or WEBP, at most 10MB."
      />
      <Field
        meta={fields.imageAlt}
        label="Image description (optional)"
        hint="What the picture shows, for people who cannot see it."
      />
      <PublishChoiceFields fields={fields} timeZone={timeZone} />
      <div className="button-row">
        <button type="submit" className="button" disabled={submitting}>
          {submitting ? submittingLabel : submitLabel}
        </button>
        <Link to="/admin/news" className="button-secondary">
          Cancel
        </Link>
      </div>
    </Form>
  )
}
