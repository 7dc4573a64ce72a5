import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PrecompressedStretch } from './precompressed-stretch'

const stylesheet = `body{margin:0}${Array.from({ length: 400 }, (_, i) => `.rule-${i}{padding:${i}px}`).join('')}`
const stretch = new PrecompressedStretch(stylesheet)

describe('a body gzipped around a stretch compressed ahead', () => {
  it('decodes to the body, wherever the stretch stands in it', async () => {
    const around = (before: string, after: string) => `${before}${stylesheet}${after}`
    for (const body of [
      around('<!doctype html><html><head><style>', '</style></head><body><p>Hello é ✓</p></body></html>'),
      around('', ' and after'),
      around('before and ', ''),
      around('', ''),
      around('twice: ', stylesheet),
    ]) {
      const gzipped = await stretch.gzip(Buffer.from(body), 6)
      expect(gzipped).not.toBeNull()
      expect(zlib.gunzipSync(gzipped!).toString()).toBe(body)
    }
  })

  it('finds the stretch after a place that only begins like it', async () => {
    const body = Buffer.from(`<title>${stylesheet.slice(0, 100)}</title><style>${stylesheet}</style>`)
    const gzipped = await stretch.gzip(body, 6)
    expect(gzipped).not.toBeNull()
    expect(zlib.gunzipSync(gzipped!)).toEqual(body)
  })

  it('decodes a large body too, whose own bytes are deflated off the main thread', async () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `word-${(i * 7919) % 10_007}`).join(' ')
    const body = Buffer.from(`<p>${words}</p><style>${stylesheet}</style><p>${words}</p>`)
    expect(body.byteLength - stylesheet.length).toBeGreaterThan(64 * 1024)
    expect(zlib.gunzipSync((await stretch.gzip(body, 6))!)).toEqual(body)
  })

  it('is about as small as the best level makes the whole body', async () => {
    const body = Buffer.from(`<p>A page.</p>${stylesheet}<p>The end.</p>`)
    const gzipped = (await stretch.gzip(body, 6))!
    expect(gzipped.byteLength).toBeLessThan(zlib.gzipSync(body, { level: 9 }).byteLength + 64)
  })

  it('is not made when the body does not carry the whole stretch word for word', async () => {
    expect(await stretch.gzip(Buffer.from('<p>No stylesheet here.</p>'), 6)).toBeNull()
    const changedAtTheEnd = `${stylesheet.slice(0, -1)}!`
    expect(await stretch.gzip(Buffer.from(`<style>${changedAtTheEnd}</style>`), 6)).toBeNull()
    expect(await stretch.gzip(Buffer.from(stylesheet.slice(0, -1)), 6)).toBeNull()
  })
})
