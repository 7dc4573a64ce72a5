/** Which image of a carousel is shown: the arithmetic, apart from the DOM. */

/** The image one step before or after `index`; past the last comes the first, and before the first the last. */
export function stepIndex(index: number, count: number, step: -1 | 1): number {
  if (count < 1) return 0
  return (((index + step) % count) + count) % count
}

/**
 * The image a strip of full-width slides shows when scrolled to `scrollLeft`: the one that
 * covers most of it, kept within the images (overscroll can go past either end).
 */
export function indexAtScroll(scrollLeft: number, slideWidth: number, count: number): number {
  if (count < 1 || slideWidth <= 0) return 0
  return Math.min(count - 1, Math.max(0, Math.round(scrollLeft / slideWidth)))
}
