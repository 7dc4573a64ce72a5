import { describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { startServerForFile } from '../setup/server-for-file'

const server = await startServerForFile()

const THANK_YOU = 'Thank you for your message. We will get back to you soon!'

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
}

describe('the thank-you of the contact form', () => {
  it('is not shown at its address to someone who sent nothing', async () => {
    const page = await get(server, '/contact?sent=1')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).not.toContain(THANK_YOU)
    expect(html).toContain('Send Message')
  })

  it('is shown once after a real message, without JavaScript', async () => {
    const sent = await post(server, '/contact', {
      name: 'Grace Joseph',
      email: 'grace@example.com',
      subject: 'general',
      message: 'Hello from a phone without JavaScript.',
    })
    expect(sent.status).toBe(303)
    const location = sent.headers.get('location')!
    const cookie = cookiesOf(sent)
    expect(cookie).not.toBe('')

    const thanked = await get(server, location, cookie)
    expect(await thanked.text()).toContain(THANK_YOU)
    // Meant for this visitor alone, and only this once.
    expect(thanked.headers.get('cache-control')).toBe('private, no-store')
    expect(thanked.headers.getSetCookie().some((c) => /^contact-sent=;.*Max-Age=0/.test(c))).toBe(true)

    expect(await (await get(server, location)).text()).not.toContain(THANK_YOU)
  })
})
