import { describe, expect, it } from 'vitest'
import { asFile } from '../fixtures/images'
import { get } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin } = await startServerForFileSignedIn()

const NOTICE = 'What you sent was larger than 12 MB, the most one form can send, so nothing was saved.'

/** An article form with a 13 MB file, as a browser without JavaScript sends it. */
function articleWithHugeFile(): FormData {
  const body = new FormData()
  body.set('title', 'Too big to send')
  body.set('content', 'Text')
  body.set('image', asFile(Buffer.alloc(13 * 1024 * 1024, 0xff), 'panorama.jpg'))
  return body
}

function postPage(path: string, body: FormData, accept = 'text/html,application/xhtml+xml') {
  return fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, cookie: admin, accept },
    body,
  })
}

describe('a form post larger than the server reads', () => {
  it('gets its page again in the site layout with a notice, status 413, and saves nothing', async () => {
    const res = await postPage('/admin/news/new', articleWithHugeFile())
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('Site admin') // the admin layout
    expect(html).toMatch(/<h1[^>]*>Add article<\/h1>/) // the form, ready to send again
    expect(html).toContain(NOTICE)
    const list = await (await get(server, '/admin/news', admin)).text()
    expect(list).not.toContain('Too big to send')
  })

  it('shows a public page in the public layout', async () => {
    const body = new FormData()
    body.set('message', 'x'.repeat(13 * 1024 * 1024))
    const res = await postPage('/contact', body)
    expect(res.status).toBe(413)
    const html = await res.text()
    expect(html).toContain('site-footer')
    expect(html).toContain(NOTICE)
  })

  it("answers React Router's data request with a 413 error the page can show", async () => {
    const res = await postPage('/admin/news/new.data', articleWithHugeFile(), '*/*')
    expect(res.status).toBe(413)
    expect(await res.text()).toContain(NOTICE)
  })

  it('answers anything else in plain text', async () => {
    const res = await fetch(`${server.url}/admin/news/new`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(13 * 1024 * 1024),
    })
    expect(res.status).toBe(413)
    expect(await res.text()).toBe('Request body is too large (limit 12 MB).')
  })
})
