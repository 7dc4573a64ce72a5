import http from 'node:http'
import { beforeAll, describe, expect, it } from 'vitest'
import { startServerForFile } from '../setup/server-for-file'

const server = await startServerForFile()
let jpegPath: string
let webpPath: string
let size: number

beforeAll(async () => {
  // The demo articles come with images; take one the way a browser finds it.
  const html = await (await fetch(`${server.url}/news`)).text()
  jpegPath = html.match(/\/media\/images\/[\w-]+\.jpg/)![0]
  webpPath = html.match(/\/media\/images\/[\w-]+\.webp/)![0]
  size = (await (await fetch(server.url + jpegPath)).arrayBuffer()).byteLength
})

/** A request sent exactly as written: no client-side normalisation of '..' or '%2e'. */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path }, (res) => {
        let body = ''
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      .on('error', reject)
  })
}

describe('the media route', () => {
  it("serves a public item's image with its type, no sniffing, and an hour of caching", async () => {
    const res = await fetch(server.url + jpegPath)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(Number(res.headers.get('content-length'))).toBe(size)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])

    const webp = await fetch(server.url + webpPath)
    expect(webp.headers.get('content-type')).toBe('image/webp')
  })

  it('lets other sites (feed readers) embed uploaded images, but not the pages', async () => {
    const image = await fetch(server.url + jpegPath)
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    const page = await fetch(server.url + '/')
    expect(page.headers.get('cross-origin-resource-policy')).toBe('same-origin')
  })

  it('answers byte ranges with 206 and Content-Range', async () => {
    const first = await fetch(server.url + jpegPath, { headers: { range: 'bytes=0-99' } })
    expect(first.status).toBe(206)
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${size}`)
    expect((await first.arrayBuffer()).byteLength).toBe(100)

    const last = await fetch(server.url + jpegPath, { headers: { range: 'bytes=-10' } })
    expect(last.status).toBe(206)
    expect(last.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`)
    expect([...new Uint8Array(await last.arrayBuffer()).subarray(-2)]).toEqual([0xff, 0xd9])

    const rest = await fetch(server.url + jpegPath, { headers: { range: `bytes=${size - 5}-` } })
    expect(rest.status).toBe(206)
    expect((await rest.arrayBuffer()).byteLength).toBe(5)
  })

  it('answers a range beyond the end with 416', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 100}-${size + 200}`, 'bytes=-0', 'bytes=50-10']) {
      const res = await fetch(server.url + jpegPath, { headers: { range } })
      expect(res.status, range).toBe(416)
      expect(res.headers.get('content-range')).toBe(`bytes */${size}`)
      await res.arrayBuffer()
    }
  })

  it('answers a browser revalidating its copy with 304, and sends it all when its copy is another one', async () => {
    const first = await fetch(server.url + jpegPath)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    await first.arrayBuffer()
    expect((await fetch(server.url + webpPath)).headers.get('etag')).not.toBe(etag)

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await fetch(server.url + jpegPath, { headers: { 'if-none-match': ifNoneMatch } })
      expect(again.status, ifNoneMatch).toBe(304)
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.headers.get('cache-control')).toBe('public, max-age=3600')
      expect(await again.text()).toBe('')
    }
    const changed = await fetch(server.url + jpegPath, { headers: { 'if-none-match': '"other"' } })
    expect(changed.status).toBe(200)
    await changed.arrayBuffer()

    const sameCopy = await fetch(server.url + jpegPath, { headers: { range: 'bytes=0-9', 'if-range': etag } })
    expect(sameCopy.status).toBe(206)
    await sameCopy.arrayBuffer()
    const otherCopy = await fetch(server.url + jpegPath, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } })
    expect(otherCopy.status).toBe(200)
    expect((await otherCopy.arrayBuffer()).byteLength).toBe(size)
  })

  it('sends the whole file for a Range header it does not understand', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-5', 'bytes=abc']) {
      const res = await fetch(server.url + jpegPath, { headers: { range } })
      expect(res.status, range).toBe(200)
      expect((await res.arrayBuffer()).byteLength).toBe(size)
    }
  })

  it.each([
    '/media/images/00000000-0000-4000-8000-000000000000-800.jpg',
    '/media/../site.db',
    '/media/%2e%2e/site.db',
    '/media/%2E%2E/%2E%2E/etc/passwd',
    '/media/images/..%2f..%2fsite.db',
    '/media/images/%2e%2e%2f%2e%2e%2fsite.db',
    '/media/..%5c..%5csite.db',
    '/media//etc/passwd',
    '/media/%2fetc%2fpasswd',
    '/media/.partial/anything.jpg',
    '/media/images',
  ])('answers %s with 404 and nothing from outside the uploads', async (path) => {
    const { status, body } = await rawGet(path)
    expect(status).toBe(404)
    expect(body).not.toContain('SQLite format')
    expect(body).not.toContain('root:')
  })
})
