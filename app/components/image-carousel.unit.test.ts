import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { ResponsiveImageData } from '~/platform/media/image-types'
import { ImageCarousel } from './image-carousel'

function image(name: string): ResponsiveImageData {
  return {
    width: 800,
    height: 800,
    alt: `Photo of ${name}`,
    src: `/media/${name}-800.jpg`,
    jpegSrcSet: `/media/${name}-400.jpg 400w, /media/${name}-800.jpg 800w`,
    webpSrcSet: `/media/${name}-400.webp 400w, /media/${name}-800.webp 800w`,
  }
}

/** Server markup of a page with the carousel, inside a router as on the site (pictures read the root's data). */
function render(images: ResponsiveImageData[], loading?: 'lazy' | 'eager') {
  const Page = () => createElement(ImageCarousel, { images, label: 'Banana bread: photos', sizes: '20rem', loading })
  const Stub = createRoutesStub([{ path: '/', Component: Page }])
  return renderToStaticMarkup(createElement(Stub))
}

const imgTags = (html: string) => html.match(/<img [^>]*>/g) ?? []

describe('the image carousel before JavaScript runs (server markup)', () => {
  it('is a focusable strip of every image, in order, to swipe or scroll through', () => {
    const html = render([image('bread'), image('cake'), image('pie')])
    expect(imgTags(html).map((tag) => /alt="([^"]*)"/.exec(tag)?.[1])).toEqual([
      'Photo of bread',
      'Photo of cake',
      'Photo of pie',
    ])
    expect(html).toMatch(/<div class="carousel-track" tabindex="0">/)
    expect(html.match(/class="carousel-slide"/g)).toHaveLength(3)
    expect(html).toContain('aria-label="2 of 3"')
    expect(html).toContain('role="group" aria-roledescription="carousel" aria-label="Banana bread: photos"')
  })

  it('loads the first image as asked and the others lazily', () => {
    const loadings = (html: string) => imgTags(html).map((tag) => /loading="(\w+)"/.exec(tag)?.[1])
    expect(loadings(render([image('bread'), image('cake'), image('pie')], 'eager'))).toEqual(['eager', 'lazy', 'lazy'])
    expect(loadings(render([image('bread'), image('cake')]))).toEqual(['lazy', 'lazy'])
  })

  it('renders no buttons and no counter, which could do nothing until JavaScript runs', () => {
    const html = render([image('bread'), image('cake'), image('pie')])
    expect(html).not.toContain('<button')
    expect(html).not.toContain('aria-live')
    expect(html).toContain('<div class="carousel-thumbnails"></div>')
  })

  it('shows a single image on its own, without strip, buttons, counter or thumbnails', () => {
    const html = render([image('bread')], 'eager')
    expect(imgTags(html)).toHaveLength(1)
    expect(html).toContain('loading="eager"')
    expect(html).not.toMatch(/carousel-track|carousel-thumbnails|<button|aria-live/)
  })

  it('shows a 400x400 placeholder named "No image" when there are no images', () => {
    const html = render([])
    expect(imgTags(html)).toHaveLength(0)
    expect(html).toMatch(
      /<svg class="carousel-placeholder" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="No image">/,
    )
    expect(html).not.toMatch(/carousel-track|<button/)
  })
})
