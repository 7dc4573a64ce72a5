import type { ResponsiveImageData } from '~/platform/media/image-types'
import { useRootData } from './root-data'
import { sizesAtOneDevicePixel, smallestInSrcSet } from './save-data-sizes'

interface ResponsiveImageProps {
  image: ResponsiveImageData
  /** How wide the image is shown, e.g. '(min-width: 48rem) 50vw, 100vw'; the browser picks the file. */
  sizes: string
  /** 'eager' for the main image at the top of a page; lazy elsewhere. */
  loading?: 'lazy' | 'eager'
  className?: string
}

/**
 * An uploaded image as <picture>: WebP where the browser takes it, JPEG otherwise, each in
 * several widths. Width and height reserve its space so the page does not jump while it loads.
 * A visitor who saves data gets the smallest width that fills the box.
 */
export function ResponsiveImage({ image, sizes: boxSizes, loading = 'lazy', className }: ResponsiveImageProps) {
  const { savesData } = useRootData()
  const sizes = savesData ? sizesAtOneDevicePixel(boxSizes) : boxSizes
  return (
    <picture>
      <source type="image/webp" srcSet={image.webpSrcSet} sizes={sizes} />
      <img
        src={(savesData && smallestInSrcSet(image.jpegSrcSet)) || image.src}
        srcSet={image.jpegSrcSet}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={image.alt}
        loading={loading}
        decoding="async"
        fetchPriority={loading === 'eager' ? 'high' : undefined}
        className={className}
      />
    </picture>
  )
}
