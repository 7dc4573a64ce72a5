import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { CheckboxField, ErrorList, Field } from '~/components/forms'
import { ImageField } from '~/components/image-field'
import { MARKDOWN_HINT, MarkdownEditor } from '~/components/markdown-editor'
import { PublishChoiceFields } from '~/components/publish-choice-fields'
import { useIsSubmitting } from '~/components/use-is-submitting'
import { ArticleSchema, type ArticleFormValues } from '~/modules/news/news.schema'
import { NEWSLETTER_MESSAGES } from '~/modules/newsletter/newsletter.schema'
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
  /** Whether the article was e-mailed to subscribers or will be: then the form offers it no more. */
  mailing?: ReactNode
  /** PUBLIC_URL is not set: links in a scheduled article's e-mail would name the server's own address. */
  publicUrlMissing?: boolean
}

/** The add and edit form of an article: title, Markdown text, and an optional image. */
export function ArticleForm({
  lastResult,
  defaultValue,
  currentImage,
  timeZone,
  submitLabel,
  submittingLabel,
  mailing,
  publicUrlMissing = false,
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
      {mailing ?? (
        <CheckboxField
          meta={fields.emailSubscribers}
          label="Also e-mail it to subscribers of News"
          hint={
            'Sent once, when the article is public: now, or at its scheduled time.' +
            (publicUrlMissing ? ` Warning: ${NEWSLETTER_MESSAGES.noPublicUrl}` : '')
          }
        />
      )}
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

/** Where the e-mail of the article to subscribers of News stands: it is sent once, so the form offers it no more. */
export function ArticleMailingStatus({
  waitingForPublication,
  progress,
}: {
  waitingForPublication: boolean
  progress: { sent: number; waiting: number; failed: number } | null
}) {
  return (
    <p className="admin-notice" role="status">
      {progress
        ? `E-mailed to subscribers of News: ${progress.sent} sent, ${progress.waiting} waiting, ${progress.failed} failed.`
        : waitingForPublication
          ? 'It will be e-mailed to subscribers of News when it is published.'
          : null}
    </p>
  )
}
