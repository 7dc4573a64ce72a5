import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { indexAtScroll, stepIndex } from './carousel-position'
import { ResponsiveImage } from './responsive-image'
import { useHydrated } from './use-hydrated'

interface ImageCarouselProps {
  images: readonly ResponsiveImageData[]
  /** Names the carousel for screen readers, e.g. 'Banana bread: photos'. */
  label: string
  /** How wide the images are shown, as for <ResponsiveImage>. */
  sizes: string
  /** How the first image loads; the others always load lazily. */
  loading?: 'lazy' | 'eager'
}

/**
 * A product's square images. The server sends a strip of all of them that scrolls sideways and
 * snaps to each image, so they can be swiped through without JavaScript. Once JavaScript runs,
 * previous/next buttons (wrapping at both ends), a counter, thumbnails and the arrow keys are
 * added; the controls only appear then, so none is ever shown that does nothing.
 * Styles: app/styles/carousel.css, part of the public stylesheet.
 */
export function ImageCarousel({ images, label, sizes, loading = 'lazy' }: ImageCarouselProps) {
  if (images.length === 0) {
    return (
      <div className="carousel">
        <ProductPlaceholder />
      </div>
    )
  }
  if (images.length === 1) {
    return (
      <div className="carousel">
        <ResponsiveImage image={images[0]} sizes={sizes} loading={loading} className="carousel-image" />
      </div>
    )
  }
  return <ImageStrip images={images} label={label} sizes={sizes} loading={loading} />
}

// The counter follows a swipe once it settles, not through every image a long scroll passes.
const SCROLL_SETTLE_MS = 100

function ImageStrip({ images, label, sizes, loading }: Required<ImageCarouselProps>) {
  const trackRef = useRef<HTMLDivElement>(null)
  const settleTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  // Where a button or key sent the strip: until it arrives, a pause in its smooth scrolling (a
  // busy phone drops frames) must not make a passing image the shown one.
  const target = useRef<number | null>(null)
  const [shownIndex, setShownIndex] = useState(0)
  const hydrated = useHydrated()
  useEffect(() => () => clearTimeout(settleTimer.current), [])

  const count = images.length
  const current = Math.min(shownIndex, count - 1) // the list may have become shorter

  function show(index: number) {
    target.current = index
    setShownIndex(index)
    const track = trackRef.current
    if (!track) return
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    track.scrollTo({ left: index * track.clientWidth, behavior: reduceMotion ? 'auto' : 'smooth' })
  }

  function followScroll() {
    clearTimeout(settleTimer.current)
    settleTimer.current = setTimeout(() => {
      const track = trackRef.current
      if (!track) return
      if (target.current !== null) {
        if (Math.abs(track.scrollLeft - target.current * track.clientWidth) > 1) return
        target.current = null
      }
      setShownIndex(indexAtScroll(track.scrollLeft, track.clientWidth, count))
    }, SCROLL_SETTLE_MS)
  }

  // A finger or a wheel takes over from the button that started a scroll.
  const letTheUserScroll = () => {
    target.current = null
  }

  // The card around the carousel opens a dialog when clicked; its buttons must not do that too.
  const showOnClick = (index: number) => (event: MouseEvent) => {
    event.stopPropagation()
    show(index)
  }

  function stepOnArrowKey(event: KeyboardEvent) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return // e.g. Alt+Left: browser back
    const step = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : null
    if (step === null) return
    event.preventDefault() // the strip's own arrow-key scrolling would stop at the ends
    show(stepIndex(current, count, step))
  }

  return (
    <div className="carousel" role="group" aria-roledescription="carousel" aria-label={label} onKeyDown={stepOnArrowKey}>
      <div className="carousel-stage">
        {/* Focusable so that keyboard users can scroll it without JavaScript too. */}
        <div
          className="carousel-track"
          ref={trackRef}
          tabIndex={0}
          onScroll={followScroll}
          onPointerDown={letTheUserScroll}
          onTouchStart={letTheUserScroll}
          onWheel={letTheUserScroll}
        >
          {images.map((image, index) => (
            <div
              key={index}
              className="carousel-slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
            >
              <ResponsiveImage image={image} sizes={sizes} loading={index === 0 ? loading : 'lazy'} className="carousel-image" />
            </div>
          ))}
        </div>
        {hydrated && (
          <>
            <button
              type="button"
              className="carousel-button carousel-previous"
              aria-label="Previous image"
              onClick={showOnClick(stepIndex(current, count, -1))}
            >
              <Chevron direction="previous" />
            </button>
            <button
              type="button"
              className="carousel-button carousel-next"
              aria-label="Next image"
              onClick={showOnClick(stepIndex(current, count, 1))}
            >
              <Chevron direction="next" />
            </button>
            <p className="carousel-counter" aria-live="polite">
              <span aria-hidden="true">
                {current + 1} / {count}
              </span>
              <span className="visually-hidden">
                Image {current + 1} of {count}
              </span>
            </p>
          </>
        )}
      </div>
      {/* Rendered empty on the server so that the thumbnails' row is reserved (see carousel.css). */}
      <div className="carousel-thumbnails">
        {hydrated &&
          images.map((image, index) => (
            <button
              key={index}
              type="button"
              className="carousel-thumbnail"
              aria-label={`Show image ${index + 1} of ${count}`}
              aria-current={index === current ? 'true' : undefined}
              onClick={showOnClick(index)}
            >
              <ResponsiveImage image={{ ...image, alt: '' }} sizes="3rem" className="carousel-thumbnail-image" />
            </button>
          ))}
      </div>
    </div>
  )
}

function Chevron({ direction }: { direction: 'previous' | 'next' }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path
        d={direction === 'previous' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

/**
 * The old site's 400x400 placeholder for a product without images: a picture outline on a soft
 * square. Coloured inline (from site.css's tokens) so that it also works where carousel.css is
 * not loaded, e.g. the home page's product cards.
 */
export function ProductPlaceholder() {
  return (
    <svg className="carousel-placeholder" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="No image">
      <rect width="400" height="400" style={{ fill: 'var(--color-brand-soft)' }} />
      <g style={{ fill: 'var(--color-border)', stroke: 'var(--color-border)' }}>
        <rect x="120" y="130" width="160" height="140" rx="12" fill="none" strokeWidth="10" />
        <circle cx="235" cy="175" r="15" />
        <path d="M130 260l45-55 35 40 20-22 40 37z" />
      </g>
    </svg>
  )
}
