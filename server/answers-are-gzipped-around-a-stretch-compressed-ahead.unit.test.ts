import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PrecompressedStretch } from './precompressed-stretch'

const stylesheet = `body{margin:0}${Array.from({ length: 400 }, (_, i) => `.rule-${i}{padding:${i}px}`).join('')}`
const stretch = new PrecompressedStretch(stylesheet)

describe('a body gzipped around a stretch compressed ahead', () => {
  it('decodes to the body, wherever the stretch stands in it', () => {
    const around = (before: string, after: string) => `${before}${stylesheet}${after}`
    for (const body of [
      around('<!doctype html><html><head><style>', '</style></head><body><p>Hello é ✓</p></body></html>'),
      around('', ' and after'),
      around('before and ', ''),
      around('', ''),
    ]) {
      const gzipped = stretch.gzip(Buffer.from(body), 6)
      expect(gzipped).not.toBeNull()
      expect(zlib.gunzipSync(gzipped!).toString()).toBe(body)
    }
  })

  it('is about as small as the best level makes the whole body', () => {
    const body = Buffer.from(`<p>A page.</p>${stylesheet}<p>The end.</p>`)
    const gzipped = stretch.gzip(body, 6)!
    expect(gzipped.byteLength).toBeLessThan(zlib.gzipSync(body, { level: 9 }).byteLength + 64)
  })

  it('is not made when the body does not carry the whole stretch word for word', () => {
    expect(stretch.gzip(Buffer.from('<p>No stylesheet here.</p>'), 6)).toBeNull()
    const changedAtTheEnd = `${stylesheet.slice(0, -1)}!`
    expect(stretch.gzip(Buffer.from(`<style>${changedAtTheEnd}</style>`), 6)).toBeNull()
    expect(stretch.gzip(Buffer.from(stylesheet.slice(0, -1)), 6)).toBeNull()
  })
})
