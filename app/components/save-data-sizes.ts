/** Screen densities, densest first, that the browser is told to ignore; each step at most 4/3 of the next. */
const DENSITIES = [4, 3, 2.5, 2, 1.5] as const

/**
 * A `sizes` for a visitor who saves data: the same box widths, divided by the screen's density,
 * so the browser takes the smallest variant as wide as the box in CSS pixels (at most a third
 * wider on a screen between two listed densities) instead of one per device pixel.
 * `(min-width: 48rem) 50vw, 100vw` becomes `(min-width: 48rem) and (min-resolution: 4dppx)
 * 12.5vw, …, (min-width: 48rem) 50vw, (min-resolution: 4dppx) 25vw, …, 100vw`.
 */
export function sizesAtOneDevicePixel(sizes: string): string {
  return sizes
    .split(',')
    .map((entry) => entry.trim())
    .flatMap((entry) => {
      // The length is the entry's last word; a media condition may come before it.
      const split = entry.lastIndexOf(' ')
      const condition = split === -1 ? '' : entry.slice(0, split).trim()
      const length = entry.slice(split + 1)
      // A plain length is divided here: Chrome's preload scanner picks files before any calc() is understood.
      const plain = length.match(/^(\d+(?:\.\d+)?)([a-z]+)$/)
      if (!plain) return [entry]
      const scaled = DENSITIES.map((dppx) => {
        const when = `${condition ? `${condition} and ` : ''}(min-resolution: ${dppx}dppx)`
        return `${when} ${Number((Number(plain[1]) / dppx).toFixed(2))}${plain[2]}`
      })
      return [...scaled, entry]
    })
    .join(', ')
}

/** The first (smallest) file of a `srcset`: what a visitor who saves data gets where only one picture fits. */
export function smallestInSrcSet(srcSet: string): string | null {
  return srcSet.split(',')[0]?.trim().split(' ')[0] || null
}
