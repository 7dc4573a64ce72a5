import { afterAll, describe, expect, it } from 'vitest'
import { get, post, signIn } from '../setup/http-session'
import { startTestServer } from '../setup/server'

// The contact form and an event's sign-up as a visitor first sees them are rendered once and sent
// again (KeptInside, decision 043); what one visitor typed must never reach the next. Without the
// page cache, so that every page below is rendered.
const server = await startTestServer({ PAGE_CACHE_SECONDS: '0' })
afterAll(() => server.stop())

/** The section of the page that starts with `opening`. */
function sectionOf(html: string, opening: string): string {
  const start = html.indexOf(opening)
  expect(start).toBeGreaterThan(-1)
  return html.slice(start, html.indexOf('</section>', start))
}

async function messageSection(cookie?: string): Promise<string> {
  return sectionOf(await (await get(server, '/contact', cookie)).text(), '<section aria-labelledby="message-form-heading"')
}

describe('the empty contact form', () => {
  it('is the same for every visitor, its fields labelled by their own ids', async () => {
    const first = await messageSection()
    expect(first).toContain('<label class="field-label" for="contact-email">E-mail</label>')
    expect(first).toMatch(/<input [^>]*id="contact-email"/)
    expect(first).toContain('Send Message')
    expect(await messageSection()).toBe(first)
    // Nothing of the administrator's is in it, so it is the same for them.
    expect(await messageSection(await signIn(server))).toBe(first)
  })

  it('never shows what another visitor typed, nor their errors', async () => {
    const empty = await messageSection()
    const refused = await post(server, '/contact', {
      name: 'Marisol Private-Name',
      email: 'not-an-address',
      subject: 'general',
      message: 'A message only Marisol should see again.',
    })
    expect(refused.status).toBe(400)
    const answer = await refused.text()
    // The one who typed it gets it back, with what is wrong.
    expect(answer).toContain('Marisol Private-Name')
    expect(answer).toContain('A message only Marisol should see again.')
    expect(answer).toMatch(/aria-invalid="true"[^>]*id="contact-email"|id="contact-email"[^>]*aria-invalid="true"/)

    const next = await messageSection()
    expect(next).toBe(empty)
    expect(next).not.toContain('Marisol')
    expect(next).not.toContain('aria-invalid')
  })
})

describe("an event's sign-up", () => {
  const opening = '<section class="event-section event-signup"'
  const eventPage = async () => (await get(server, '/calendar/monthly-food-and-clothing-distribution')).text()

  it('never shows what another visitor typed, and follows the places taken', async () => {
    const empty = sectionOf(await eventPage(), opening)
    expect(empty).toContain('40 places left.')
    const date = empty.match(/name="date" value="([\d-]+)"/)![1]
    const refused = await post(server, `/calendar/monthly-food-and-clothing-distribution?date=${date}`, {
      date,
      name: 'Marisol Private-Name',
      email: '',
      whatsapp: '',
      partySize: '3',
    })
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('Marisol Private-Name')
    expect(sectionOf(await eventPage(), opening)).toBe(empty)

    const signedUp = await post(server, `/calendar/monthly-food-and-clothing-distribution?date=${date}`, {
      date,
      name: 'Marisol Private-Name',
      email: 'marisol@example.com',
      partySize: '3',
    })
    expect(signedUp.status).toBe(303)
    const after = sectionOf(await eventPage(), opening)
    expect(after).toContain('37 places left.')
    expect(after).not.toContain('Marisol')
  })
})
