import { describe, expect, it } from 'vitest'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()

const FORM_ROUTES = [
  '/login',
  '/contact',
  '/admin/news',
  '/admin/news/new',
  '/admin/users/new',
  '/admin/settings',
  '/admin/pages?page=about',
  '/admin/account',
]

const BODIES: Array<{ name: string; headers: Record<string, string>; body: string }> = [
  { name: 'JSON', headers: { 'content-type': 'application/json' }, body: '{"email":"a@b.c"}' },
  { name: 'plain text', headers: { 'content-type': 'text/plain' }, body: 'hello' },
  { name: 'no content type', headers: {}, body: 'x' },
  {
    name: 'broken multipart',
    headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
    body: '--XYZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nno closing boundary',
  },
]

describe('a POST whose body is not a form', () => {
  for (const { name, headers, body } of BODIES) {
    it(`gets 400 with a clear message on every form route (${name})`, async () => {
      for (const path of FORM_ROUTES) {
        const res = await fetch(server.url + path, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...headers, origin: server.url, cookie: admin },
          body,
        })
        expect(res.status, path).toBe(400)
        expect(await res.text(), path).toContain('The form could not be read. Please reload the page and try again.')
      }
    })
  }

  it('answers on a public page inside the site frame, with the organisation name from the settings', async () => {
    const res = await fetch(`${server.url}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: '{}',
    })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('Hearts of Hope Ministry')
    expect(html).toContain('Support Our Mission')
  })

  it('is not logged as a server error', () => {
    expect(server.output()).not.toMatch(/"level":(50|60)/)
  })
})
