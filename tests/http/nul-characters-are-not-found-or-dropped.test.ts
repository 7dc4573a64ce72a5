import { describe, expect, it } from 'vitest'
import { ADMIN, get, post } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startServerForFileSignedIn } from '../setup/server-for-file'

// U+0000 (%00) cannot be stored in PostgreSQL text, and a query that carries it fails. No browser
// sends it; a crafted request may, in a URL or a form. An address with it names nothing (404);
// forms drop it from their texts. Never a 5xx, on either database.

const { server, admin } = await startServerForFileSignedIn()

describe('U+0000 in a URL', () => {
  it('answers the address of an article with the site’s 404 page', async () => {
    const response = await get(server, '/news/a%00b')
    expect(response.status).toBe(404)
    expect(await response.text()).toContain('Page not found')
  })

  it.each([
    ['an article’s data', '/news/a%00b.data'],
    ['a media file', '/media/images/a%00b.jpg'],
  ])('answers the address of %s with 404', async (_case, path) => {
    expect((await get(server, path)).status).toBe(404)
  })

  it.each([
    ['a message', '/admin/messages/a%00b'],
    ['a user', '/admin/users/a%00b'],
    ['an article', '/admin/news/a%00b'],
  ])('answers the admin page of %s with 404', async (_case, path) => {
    expect((await get(server, path, admin)).status).toBe(404)
  })
})

describe('U+0000 in a form', () => {
  it('is dropped from a contact message, which is stored', async () => {
    const response = await post(server, '/contact', {
      name: 'Null\u0000 Visitor',
      email: 'visitor@example.com',
      subject: 'general',
      message: 'Hello\u0000 there',
    })
    expect(response.status).toBe(303)
    const messages = await queryServerDatabase<{ name: string; message: string }>(
      server,
      `select name, message from contact_messages where email = 'visitor@example.com'`,
    )
    expect(messages).toEqual([{ name: 'Null Visitor', message: 'Hello there' }])
  })

  it('makes no difference to a sign-in: a wrong address is refused, the right one signs in', async () => {
    const wrong = await post(server, '/login', { email: 'a\u0000b@example.org', password: 'not the password' })
    expect(wrong.status).toBe(401)
    const [name, domain] = ADMIN.email.split('@')
    const right = await post(server, '/login', { email: `${name}\u0000@${domain}`, password: ADMIN.password })
    expect(right.status).toBe(302)
  })

  it('is dropped from an article an admin posts', async () => {
    const response = await post(server, '/admin/news/new', { title: 'Nul\u0000 Day', content: 'Text\u0000 here' }, admin)
    expect(response.status).toBe(302)
    const article = await get(server, '/news/nul-day')
    expect(article.status).toBe(200)
    const html = await article.text()
    expect(html).toContain('Nul Day')
    expect(html).toContain('Text here')
  })

  it('is dropped from a new user’s name', async () => {
    const response = await post(
      server,
      '/admin/users/new',
      { name: 'Nul\u0000 User', email: 'nul.user@example.org', role: 'marketplace', password: 'a long enough password' },
      admin,
    )
    expect(response.status).toBe(302)
    const users = await queryServerDatabase<{ name: string }>(
      server,
      `select name from users where email = 'nul.user@example.org'`,
    )
    expect(users).toEqual([{ name: 'Nul User' }])
  })
})
