import type Sharp from 'sharp'

let loading: Promise<typeof Sharp> | null = null

/**
 * sharp and its libvips take tens of megabytes and a noticeable part of a second to load: they are
 * loaded with the first image the site processes, not at every start.
 */
export function loadSharp(): Promise<typeof Sharp> {
  return (loading ??= import('sharp').then((module) => module.default))
}
