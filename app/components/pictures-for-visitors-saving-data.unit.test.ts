import { describe, expect, it } from 'vitest'
import { sizesAtOneDevicePixel, smallestInSrcSet } from './save-data-sizes'

describe('a visitor who saves data', () => {
  it('is sent sizes that divide each box by the screen density, keeping the original as the last word', () => {
    expect(sizesAtOneDevicePixel('100vw')).toBe(
      '(min-resolution: 4dppx) 25vw, (min-resolution: 3dppx) 33.33vw, (min-resolution: 2.5dppx) 40vw, ' +
        '(min-resolution: 2dppx) 50vw, (min-resolution: 1.5dppx) 66.67vw, 100vw',
    )
    const sizes = sizesAtOneDevicePixel('(min-width: 48rem) 24rem, 100vw').split(', ')
    expect(sizes).toHaveLength(12)
    expect(sizes[0]).toBe('(min-width: 48rem) and (min-resolution: 4dppx) 6rem')
    expect(sizes[5]).toBe('(min-width: 48rem) 24rem')
    expect(sizes[11]).toBe('100vw')
  })

  it('keeps a box it cannot divide as it is', () => {
    expect(sizesAtOneDevicePixel('calc(100vw - 2rem)')).toBe('calc(100vw - 2rem)')
  })

  it('gets the smallest file of a srcset where only one picture fits', () => {
    expect(smallestInSrcSet('/media/a-400.jpg 400w, /media/a-800.jpg 800w')).toBe('/media/a-400.jpg')
    expect(smallestInSrcSet('')).toBeNull()
  })
})
