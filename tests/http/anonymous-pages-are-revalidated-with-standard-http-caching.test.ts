import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { execOnServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// Decision 048: anonymous pages may be kept by browsers and the caches in between, which ask
// again before each use; the page's ETag lets the site answer 304, without its bytes.
const { server, admin } = await startServerForFileSignedIn()
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-etags-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

it('gives an anonymous page a public, revalidated profile and an ETag, and answers 304 to a client that holds it', async () => {
  const first = await get(server, '/about', undefined, { 'accept-encoding': 'br' })
  expect(first.status).toBe(200)
  const body = await first.arrayBuffer()
  expect(body.byteLength).toBeGreaterThan(0)
  expect(first.headers.get('cache-control')).toBe('public, no-cache')
  expect(first.headers.get('vary')).toMatch(/\bCookie\b/)
  const etag = first.headers.get('etag')!
  expect(etag).toMatch(/^W\/"[\w-]+"$/)

  const again = await get(server, '/about', undefined, { 'accept-encoding': 'br', 'if-none-match': etag })
  expect(again.status).toBe(304)
  expect(await again.text()).toBe('')
  expect(again.headers.get('etag')).toBe(etag)
  expect(again.headers.get('cache-control')).toBe('public, no-cache')
  // Each encoding is the same page: one tag for all.
  const plain = await get(server, '/about', undefined, { 'accept-encoding': 'identity', 'if-none-match': etag })
  expect(plain.status).toBe(304)

  // A change to what the page shows gives a new page and a new tag.
  await execOnServerDatabase(
    server,
    'insert into page_sections (key, content, updated_at) values (\'about\', \'{"hero":{"title":"Who we are"}}\', \'2026-01-01T00:00:00.000Z\') on conflict (key) do update set content = excluded.content',
  )
  const changed = await get(server, '/about', undefined, { 'accept-encoding': 'br', 'if-none-match': etag })
  expect(changed.status).toBe(200)
  expect(await changed.text()).toContain('Who we are')
  expect(changed.headers.get('etag')).not.toBe(etag)
})

it('is revalidated by curl, an outside client that keeps the ETag it was given', () => {
  const etagFile = path.join(dir, 'news.etag')
  const curl = (...args: string[]) => {
    const result = spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...args, `${server.url}/news`])
    if (result.error) throw new Error(`curl could not be run (apt-get install curl): ${result.error.message}`)
    return result.stdout.toString()
  }
  expect(curl('--etag-save', etagFile)).toBe('200')
  expect(fs.readFileSync(etagFile, 'utf8')).toMatch(/^W\/"/)
  expect(curl('--etag-compare', etagFile)).toBe('304')
})

it('gives a signed-in page neither a tag nor a place in any cache, whatever the client holds', async () => {
  const anonymous = await get(server, '/news')
  await anonymous.arrayBuffer()
  const etag = anonymous.headers.get('etag')!
  const signedIn = await get(server, '/news', admin, { 'if-none-match': etag })
  expect(signedIn.status).toBe(200)
  expect(signedIn.headers.get('cache-control')).toBe('private, no-store')
  expect(signedIn.headers.get('etag')).toBeNull()
  expect(await signedIn.text()).toContain('Sign out')
})

it('keeps searches in the visitor’s own browser only, and the health check nowhere', async () => {
  const search = await get(server, '/search?q=bread')
  await search.arrayBuffer()
  expect(search.headers.get('cache-control')).toBe('private, no-cache')
  const health = await get(server, '/healthz')
  await health.arrayBuffer()
  expect(health.headers.get('cache-control')).toBe('no-store')
})
