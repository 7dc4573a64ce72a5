import type { StoredImageFiles } from './image-pipeline.server'

/** An upload that is checked, encoded and stored, not yet recorded (`attach` records it). */
export type StoredImage = StoredImageFiles

export interface ImageChange {
  /** A new image, stored with `storeImage`; it replaces the current one. */
  upload?: StoredImage | null
  /** True to drop the current image (when there is no new upload). */
  remove?: boolean
  /** The description of the image the record ends up with. */
  alt: string
}

export interface ImageListChange {
  /** The record's images now, in order. */
  current: readonly string[]
  /** The images to keep, in their new order; ids that are not in `current` are ignored. */
  keep: readonly string[]
  /** New images, stored with `storeImage`, added after the kept ones. */
  add: readonly StoredImage[]
  /** The description of every image of the list (e.g. the product's name). */
  alt: string
  /** The most images the list may hold, and what the uploader is told beyond that. */
  max?: { count: number; message: string }
}
