import { z } from 'zod'
import { requiredText, text } from '~/platform/form-schema'
import { singleImageFields } from '~/platform/media/image-field'
import { checkPublishChoice, publishChoiceFields } from '~/platform/publication'

/** Articles per page of /news (the old site listed at most 100). */
export const ARTICLES_PER_PAGE = 12

export const ArticleSchema = z
  .object({
    title: requiredText('Title', 200),
    content: text({ error: 'Content is required' })
      .trim()
      .min(1, 'Content is required')
      .max(50_000, 'Content must be at most 50,000 characters'),
    ...singleImageFields('article'),
    ...publishChoiceFields,
    /** Also e-mail it to the subscribers of News once it is public (app/modules/newsletter). */
    emailSubscribers: z.boolean().default(false),
  })
  .superRefine(checkPublishChoice)

export type ArticleInput = z.infer<typeof ArticleSchema>
export type ArticleFormValues = z.input<typeof ArticleSchema>
