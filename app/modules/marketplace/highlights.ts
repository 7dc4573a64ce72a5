/**
 * The home page shows three random products, as the old site did. The page may come from a cache,
 * so it ships a few more and the browser picks its own three on every visit (without JavaScript,
 * the page's first three stay).
 */
export const HIGHLIGHTS_SHOWN = 3
export const HIGHLIGHTS_SHIPPED = 9

/** `count` items of `items` in random order (Fisher–Yates on a copy). */
export function pickAtRandom<T>(items: readonly T[], count: number): T[] {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy.slice(0, count)
}
