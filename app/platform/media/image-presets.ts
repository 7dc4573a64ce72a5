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
  /** Largest upload accepted, and what the person uploading is told when a file is larger. */
  maxBytes: number
  tooLargeMessage: (fileName: string) => string
}

const TEN_MB = 10 * 1024 * 1024
const FIFTY_MB = 50 * 1024 * 1024
// The old site's messages: articles name the limit, the gallery's upload form names the file.
const tooLargeForTenMb = () => 'Image file is too large. Maximum size is 10MB.'

export const IMAGE_PRESETS = {
  /** News articles: the picture as it was taken, shown up to the reading column's width. */
  article: {
    widths: [400, 800, 1200],
    aspectRatio: null,
    maxHeight: 8_000,
    formats: ['webp', 'jpeg'],
    maxBytes: TEN_MB,
    tooLargeMessage: tooLargeForTenMb,
  },
  /** Photo gallery: grid thumbnails and a large view; files come from the resumable upload. */
  gallery: {
    widths: [400, 800, 1600],
    aspectRatio: null,
    maxHeight: 8_000,
    formats: ['webp', 'jpeg'],
    maxBytes: FIFTY_MB,
    tooLargeMessage: (fileName) => `${fileName} is larger than 50MB`,
  },
  /** Marketplace products: square crops, so cards and the carousel line up. */
  product: {
    widths: [400, 800],
    aspectRatio: 1,
    maxHeight: 800,
    formats: ['webp', 'jpeg'],
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
    maxBytes: TEN_MB,
    tooLargeMessage: tooLargeForTenMb,
  },
  /** A video's poster frame (made by the server, not uploaded): at most 720p like the video; 400 px for grid thumbnails. */
  poster: {
    widths: [400, 640, 1280],
    aspectRatio: null,
    maxHeight: 1_280,
    formats: ['webp', 'jpeg'],
    maxBytes: TEN_MB,
    tooLargeMessage: tooLargeForTenMb,
  },
} as const satisfies Record<string, ImagePreset>

export type ImagePresetName = keyof typeof IMAGE_PRESETS

/** The types a file picker offers; the server checks the content, not the name or this list. */
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp'

export const INVALID_IMAGE_TYPE_MESSAGE = 'Invalid image type. Please upload a JPG, PNG, GIF, or WEBP file.'
export const IMAGE_DIMENSIONS_MESSAGE = 'Image dimensions are too large. Maximum is 40 megapixels.'
