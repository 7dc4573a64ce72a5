/** One re-encoded file of an uploaded image. */
export interface ImageVariant {
  key: string
  format: 'webp' | 'jpeg'
  width: number
  height: number
  bytes: number
}

/** What a page needs to show an image responsively (URLs already resolved). */
export interface ResponsiveImageData {
  width: number
  height: number
  alt: string
  /** The JPEG every browser can show. */
  src: string
  jpegSrcSet: string
  webpSrcSet: string
}
