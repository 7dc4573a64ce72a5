import { describe, expect, it } from 'vitest'
import { stepIndex } from './carousel-position'

describe('stepping through a carousel', () => {
  it('moves one image forward and back', () => {
    expect(stepIndex(0, 5, 1)).toBe(1)
    expect(stepIndex(3, 5, 1)).toBe(4)
    expect(stepIndex(4, 5, -1)).toBe(3)
    expect(stepIndex(1, 5, -1)).toBe(0)
  })

  it('goes from the last image to the first', () => {
    expect(stepIndex(4, 5, 1)).toBe(0)
    expect(stepIndex(1, 2, 1)).toBe(0)
  })

  it('goes from the first image to the last', () => {
    expect(stepIndex(0, 5, -1)).toBe(4)
    expect(stepIndex(0, 2, -1)).toBe(1)
  })

  it('stays on a single image', () => {
    expect(stepIndex(0, 1, 1)).toBe(0)
    expect(stepIndex(0, 1, -1)).toBe(0)
  })

  it('stays at 0 when there are no images', () => {
    expect(stepIndex(0, 0, 1)).toBe(0)
    expect(stepIndex(0, 0, -1)).toBe(0)
  })

  it('lands back on the start after a full round in either direction', () => {
    let forward = 2
    let backward = 2
    for (let i = 0; i < 7; i++) {
      forward = stepIndex(forward, 7, 1)
      backward = stepIndex(backward, 7, -1)
    }
    expect([forward, backward]).toEqual([2, 2])
  })
})
