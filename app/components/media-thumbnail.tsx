import { ResponsiveImage } from './responsive-image'
import type { ResponsiveImageData } from '~/platform/media/image-types'

/**
 * A gallery item's picture in a grid (the photo, or the video's poster with a play mark). The
 * link around it carries the title, so the picture itself is not announced again.
 */
export function MediaThumbnail({
  item,
  sizes,
  loading = 'lazy',
}: {
  item: { kind: 'photo' | 'video'; thumbnail: ResponsiveImageData }
  sizes: string
  loading?: 'lazy' | 'eager'
}) {
  return (
    <span className="media-thumb">
      <ResponsiveImage image={{ ...item.thumbnail, alt: '' }} sizes={sizes} loading={loading} className="media-thumb-image" />
      {item.kind === 'video' ? (
        <span className="media-play" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28" focusable="false">
            <path fill="currentColor" d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5Z" />
          </svg>
        </span>
      ) : null}
    </span>
  )
}
