import { describe, expect, it } from 'vitest'
import { indexAtScroll } from './carousel-position'

describe('the image shown while the strip is scrolled', () => {
  it('is the slide the strip is snapped to', () => {
    expect(indexAtScroll(0, 300, 4)).toBe(0)
    expect(indexAtScroll(300, 300, 4)).toBe(1)
    expect(indexAtScroll(900, 300, 4)).toBe(3)
  })

  it('is the slide covering most of the strip in the middle of a swipe', () => {
    expect(indexAtScroll(149, 300, 4)).toBe(0)
    expect(indexAtScroll(151, 300, 4)).toBe(1)
    expect(indexAtScroll(599.5, 300, 4)).toBe(2)
  })

  it('stays within the images when the strip overscrolls either end', () => {
    expect(indexAtScroll(-40, 300, 4)).toBe(0)
    expect(indexAtScroll(1000, 300, 4)).toBe(3)
  })

  it('is the first before the strip has a width, and with no images', () => {
    expect(indexAtScroll(120, 0, 4)).toBe(0)
    expect(indexAtScroll(120, 300, 0)).toBe(0)
  })
})
