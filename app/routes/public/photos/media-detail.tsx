import { useEffect, useRef } from 'react'
import { useLocation, Link } from 'react-router'
import { ResponsiveImage } from '~/components/responsive-image'
import { useRootData } from '~/components/root-data'
import { smallestInSrcSet } from '~/components/save-data-sizes'
import type { MediaDetail } from '~/modules/gallery/gallery.queries.server'
import { mediaHref, type MediaCategory } from '~/modules/gallery/media-categories'
import type { Shared } from '~/platform/shared'

interface MediaItemDetailProps {
  item: Shared<MediaDetail & { dateLabel: string }>
  /** The category the grid was showing: the neighbours are those of that list. */
  category: MediaCategory | null
  inDialog: boolean
}

/** A photo's or video's own words, picture and neighbours. */
export function MediaItemDetail({ item, category, inDialog }: MediaItemDetailProps) {
  const location = useLocation()
  // In the dialog, moving on replaces the entry: closing goes straight back to the grid.
  const neighbour = (slug: string, rel: 'prev' | 'next', label: string) => (
    <Link
      to={mediaHref(slug, category)}
      replace={inDialog}
      state={location.state}
      preventScrollReset
      className="button-secondary button-small"
      rel={rel}
    >
      {label}
    </Link>
  )
  return (
    <div>
      <MediaView item={item} autoPlay={inDialog} />
      <div className="gallery-detail-text">
        <h1 id="media-title">{item.title}</h1>
        <p className="gallery-meta">
          <time dateTime={item.publishedAt}>{item.dateLabel}</time>
          <span aria-hidden="true"> · </span>
          <span>{item.category}</span>
        </p>
        <div className="markdown-text" dangerouslySetInnerHTML={{ __html: item.descriptionHtml }} />
      </div>
      <nav className="gallery-detail-nav" aria-label="Photos and videos">
        {item.previous ? neighbour(item.previous, 'prev', '← Previous') : <span />}
        {item.next ? neighbour(item.next, 'next', 'Next →') : null}
      </nav>
    </div>
  )
}

/**
 * The photo, or the video with its controls. Opened by the visitor, the video starts playing;
 * where the browser allows that only without sound (phones), it plays muted and the controls
 * turn the sound on.
 */
function MediaView({ item, autoPlay }: { item: Shared<MediaDetail>; autoPlay: boolean }) {
  const videoRef = useRef<HTMLVideoElement>(null)
  const { savesData } = useRootData()
  useEffect(() => {
    const video = videoRef.current
    if (!autoPlay || !video) return
    video.play().catch(() => {
      video.muted = true
      video.play().catch(() => {})
    })
  }, [autoPlay, item.slug])

  if (!item.video) {
    return (
      <div className="gallery-media">
        <ResponsiveImage
          image={item.thumbnail}
          sizes="(min-width: 64rem) 60rem, 100vw"
          loading="eager"
          className="gallery-media-image"
        />
      </div>
    )
  }
  const { video } = item
  return (
    <div className="gallery-media">
      <video
        key={item.slug}
        ref={videoRef}
        className="gallery-media-video"
        controls
        playsInline
        // A visitor who saves data loads nothing of the video until they play it.
        preload={savesData ? 'none' : 'metadata'}
        poster={(savesData && smallestInSrcSet(video.poster.jpegSrcSet)) || video.poster.src}
        width={video.width ?? undefined}
        height={video.height ?? undefined}
        aria-label={item.title}
      >
        <source src={video.src} type={video.contentType} />
        <a href={video.src}>Download the video</a>
      </video>
    </div>
  )
}
