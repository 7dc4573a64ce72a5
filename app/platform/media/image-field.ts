import { z } from 'zod'
import { text } from '../form-schema'
import { IMAGE_PRESETS, type ImagePresetName } from './image-presets'

/*
 * Zod pieces for image fields, shared by the browser and the server. The browser checks sizes
 * and counts before anything is sent; the server checks them again and also the content.
 * <ImageField> (app/components/image-field.tsx) sends exactly these names.
 */

export const IMAGE_DESCRIPTION_MAX = 300

/** One uploaded image file; the size limit and message come from the preset. */
export function imageFile(preset: ImagePresetName) {
  const { maxBytes, tooLargeMessage } = IMAGE_PRESETS[preset]
  return z.file().refine((file) => file.size <= maxBytes, {
    error: (issue) => tooLargeMessage((issue.input as File).name),
  })
}

/** What the picture shows, for people who cannot see it. */
export function imageDescription() {
  return text()
    .trim()
    .max(IMAGE_DESCRIPTION_MAX, `Image description must be at most ${IMAGE_DESCRIPTION_MAX} characters`)
    .optional()
    .transform((v) => v ?? '')
}

/**
 * A record's single, optional image: `image` (a new file), `imageAlt` and `removeImage` (drop
 * the current one). Spread into the form's schema: `z.object({ title, ...singleImageFields('article') })`.
 */
export function singleImageFields(preset: ImagePresetName) {
  return {
    image: imageFile(preset).optional(),
    imageAlt: imageDescription(),
    removeImage: z
      .boolean()
      .optional()
      .transform((v) => v ?? false),
  }
}

export interface ImageListLimits {
  /** The most images a record may have. */
  max: number
  /** What the uploader is told when there would be more. */
  tooManyMessage: string
}

/**
 * A record's ordered images: `uploads` (new images as finished resumable uploads, added at the
 * end; see <ResumableUpload>), `keepImages` (the current images to keep, in their new order) and
 * `removeImages` (current images ticked for removal). Give the result to `keptImageIds` and
 * `syncImages`; the server checks each upload's size and content when it stores it.
 */
export function imageListFields(limits: ImageListLimits) {
  const id = text().max(64)
  return {
    uploads: z.array(id).max(limits.max, limits.tooManyMessage).default([]),
    keepImages: z.array(id).max(limits.max).default([]),
    removeImages: z.array(id).max(limits.max).default([]),
  }
}

/** The current images to keep, in order: those listed and not ticked for removal. */
export function keptImageIds(value: { keepImages: readonly string[]; removeImages: readonly string[] }): string[] {
  const removed = new Set(value.removeImages)
  return value.keepImages.filter((id) => !removed.has(id))
}
