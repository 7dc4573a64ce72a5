import { z } from 'zod'
import { requiredText, text } from '~/platform/form-schema'

/** Articles' images: the seed's limit and message. */
export const ARTICLE_IMAGE_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  tooLargeMessage: 'Image file is too large. Maximum size is 10MB.',
}

/** Gallery categories: items of the old site's shared collection with one of these are media, not news. */
export const MEDIA_CATEGORIES = ['Events', 'Education', 'Health', 'Community', 'Projects']

/** Articles per page of /news (the seed listed at most 100). */
export const ARTICLES_PER_PAGE = 12

export const ArticleSchema = z.object({
  title: requiredText('Title', 200),
  content: text({ error: 'Content is required' })
    .trim()
    .min(1, 'Content is required')
    .max(50_000, 'Content must be at most 50,000 characters'),
  // The type is checked on the server from the file's content; the size can be checked early.
  image: z
    .instanceof(File)
    .optional()
    .refine((file) => !file || file.size <= ARTICLE_IMAGE_LIMITS.maxBytes, ARTICLE_IMAGE_LIMITS.tooLargeMessage),
  imageAlt: text()
    .trim()
    .max(300, 'Image description must be at most 300 characters')
    .optional()
    .transform((v) => v ?? ''),
  removeImage: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
})

export type ArticleInput = z.infer<typeof ArticleSchema>
export type ArticleFormValues = z.input<typeof ArticleSchema>
