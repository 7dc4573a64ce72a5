/**
 * What kinds of images the site stores, declared once: the server encodes by these, the form
 * fields check sizes by them, and pages choose their `sizes` with them in mind.
 */

export type ImageFormat = 'webp' | 'jpeg'

export interface ImagePreset {
  /** Widths of the stored variants, smallest first. An image is never enlarged: a smaller one gets its own width. */
  widths: readonly number[]
  /** Width / height of a centre-weighted crop (1 = square), or null to keep the image's own shape. */
  aspectRatio: number | null
  /**
   * The tallest a variant may be; a taller image (a phone's scrolling screenshot) is scaled down
   * to fit. WebP cannot encode more than 16,383 px, and phones struggle with very tall images.
   */
  maxHeight: number
  /** JPEG always comes last: it is the fallback every browser shows. */
  formats: readonly ImageFormat[]
  /** The types the file picker offers and the browser lets through (the server then checks the content). */
  accept: readonly string[]
  wrongTypeMessage: (fileName: string) => string
  /** Largest upload accepted, and what the person uploading is told when a file is larger. */
  maxBytes: number
  tooLargeMessage: (fileName: string) => string
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']
const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime']

const TEN_MB = 10 * 1024 * 1024
const FIFTY_MB = 50 * 1024 * 1024
// The old site's messages: articles name the limit, the gallery's upload form names the file.
const tooLargeForTenMb = () => 'Image file is too large. Maximum size is 10MB.'
export const INVALID_IMAGE_TYPE_MESSAGE = 'Invalid image type. Please upload a JPG, PNG, GIF, or WEBP file.'
const IMAGES = { accept: IMAGE_TYPES, wrongTypeMessage: () => INVALID_IMAGE_TYPE_MESSAGE }

export const IMAGE_PRESETS = {
  /** News articles: the picture as it was taken, shown up to the reading column's width. */
  article: {
    widths: [400, 800, 1200],
    aspectRatio: null,
    maxHeight: 8_000,
    formats: ['webp', 'jpeg'],
    ...IMAGES,
    maxBytes: TEN_MB,
    tooLargeMessage: tooLargeForTenMb,
  },
  /** Photo gallery: grid thumbnails and a large view; files come from the resumable upload. */
  gallery: {
    widths: [400, 800, 1600],
    aspectRatio: null,
    maxHeight: 8_000,
    formats: ['webp', 'jpeg'],
    // The gallery's upload form takes videos too, under the same limit.
    accept: [...IMAGE_TYPES, ...VIDEO_TYPES],
    wrongTypeMessage: (fileName) => `${fileName} is not a valid image or video type`,
    maxBytes: FIFTY_MB,
    tooLargeMessage: (fileName) => `${fileName} is larger than 50MB`,
  },
  /** Marketplace products: square crops, so cards and the carousel line up. */
  product: {
    widths: [400, 800],
    aspectRatio: 1,
    maxHeight: 800,
    formats: ['webp', 'jpeg'],
    accept: IMAGE_TYPES,
    // Several files are chosen at once: the message names the one refused.
    wrongTypeMessage: (fileName) => `${fileName} is not a JPG, PNG, GIF or WEBP image.`,
    maxBytes: TEN_MB,
    tooLargeMessage: tooLargeForTenMb,
  },
  /**
   * The photograph behind a page's hero, full width on every screen: the picture a phone waits
   * for first, so each common screen finds a width just above its own: 800 px for the many
   * 360 px phones at 2× (and 412 px at 1.75×), 960 px for 412 px at 2×, 1280 px for 3×.
   */
  hero: {
    widths: [640, 800, 960, 1280, 1920],
    aspectRatio: null,
    maxHeight: 1_920,
    formats: ['webp', 'jpeg'],
    ...IMAGES,
    maxBytes: TEN_MB,
    tooLargeMessage: tooLargeForTenMb,
  },
  /** A video's poster frame (made by the server, not uploaded): at most 720p like the video; 400 px for grid thumbnails. */
  poster: {
    widths: [400, 640, 1280],
    aspectRatio: null,
    maxHeight: 1_280,
    formats: ['webp', 'jpeg'],
    ...IMAGES,
    maxBytes: TEN_MB,
    tooLargeMessage: tooLargeForTenMb,
  },
} as const satisfies Record<string, ImagePreset>

export type ImagePresetName = keyof typeof IMAGE_PRESETS

/** The file picker's `accept` for a preset; the server checks the content, not the name or this list. */
export function acceptOf(preset: ImagePresetName): string {
  return IMAGE_PRESETS[preset].accept.join(',')
}

/** The browser's check of a chosen file before it is sent, by the preset's rules; null when it may go. */
export function fileProblem(file: { name: string; type: string; size: number }, preset: ImagePresetName): string | null {
  const { accept, wrongTypeMessage, maxBytes, tooLargeMessage } = IMAGE_PRESETS[preset]
  if (!accept.includes(file.type)) return wrongTypeMessage(file.name)
  if (file.size > maxBytes) return tooLargeMessage(file.name)
  return null
}
export const IMAGE_DIMENSIONS_MESSAGE = 'Image dimensions are too large. Maximum is 40 megapixels.'
