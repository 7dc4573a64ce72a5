import type Sharp from 'sharp'

let loading: Promise<typeof Sharp> | null = null

/**
 * sharp and its libvips take tens of megabytes and a noticeable part of a second to load: they are
 * loaded with the first image the site processes, not at every start.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // Each image is processed once: libvips' cache of recent operations would only hold memory.
    sharp.cache(false)
    return sharp
  })
  return loading
}
