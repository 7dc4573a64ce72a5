import { z } from 'zod'
import { requiredText, text } from '~/platform/form-schema'
import { MEDIA_CATEGORIES, DEFAULT_MEDIA_CATEGORY } from './media-categories'
import { checkPublishChoice, publishChoiceFields } from '~/platform/publication'

/** Files one upload form may add at once. */
export const MEDIA_FILES_MAX = 20

export const NO_FILES_MESSAGE = 'Please select at least one file'
export const UPLOAD_FAILED_MESSAGE = 'Failed to upload files'

const details = {
  title: requiredText('Title', 200),
  description: requiredText('Description', 5_000),
  category: z.enum(MEDIA_CATEGORIES, { error: 'Choose a category' }).default(DEFAULT_MEDIA_CATEGORY),
  featured: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  ...publishChoiceFields,
}

/** The upload form: the finished uploads' ids (see <ResumableUpload>) and what every new item gets. */
const uploadFields = {
  ...details,
  files: z
    .array(text().max(64), { error: NO_FILES_MESSAGE })
    .min(1, NO_FILES_MESSAGE)
    .max(MEDIA_FILES_MAX, `At most ${MEDIA_FILES_MAX} files at a time`),
}
export const MediaUploadSchema = z.object(uploadFields).superRefine(checkPublishChoice)
export type MediaUploadInput = z.infer<typeof MediaUploadSchema>

/** The gallery admin page's two forms: upload new items, or delete one (the edit page posts here too). */
export const MediaActionSchema = z.discriminatedUnion('intent', [
  z.object({ ...uploadFields, intent: z.literal('upload') }).superRefine(checkPublishChoice),
  z.object({
    intent: z.literal('delete'),
    id: text().trim().min(1, 'Media ID is required for deletion').max(100),
    // The public gallery's delete control comes back to the gallery.
    returnTo: z.enum(['/admin/photos', '/photos']).default('/admin/photos'),
  }),
])
export type MediaUploadValues = z.input<typeof MediaUploadSchema>

export const MediaEditSchema = z.object(details).superRefine(checkPublishChoice)
export type MediaEditInput = z.infer<typeof MediaEditSchema>
export type MediaEditValues = z.input<typeof MediaEditSchema>
