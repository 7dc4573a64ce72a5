import { describe, expect, it } from 'vitest'
import { demoPageContent } from '../../app/modules/pages/pages.demo'
import { getValueAtPath, pageEditors } from '../../app/modules/pages/pages.editor'
import { get, post } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin: cookie } = await startServerForFileSignedIn()

const ABOUT_URL = '/admin/pages?page=about'
const UNREADABLE = 'The form could not be read. Please reload the page and try again.'

/** The About Us form exactly as the editor sends it, with the demo texts and a changed Outreach heading. */
function aboutForm(outreachHeading: string): Record<string, string> {
  const editor = pageEditors.find((e) => e.key === 'about')!
  const fields = Object.fromEntries(
    editor.groups.flatMap((group) => group.fields).map(({ name }) => [name, getValueAtPath(demoPageContent.about, name)]),
  )
  return { ...fields, 'outreach.heading': outreachHeading }
}

async function aboutPage() {
  return (await get(server, '/about')).text()
}

describe('the page texts form on the server', () => {
  const unsaved = 'Reaching Every Family Unsaved'
  it.each([
    ['contact persons sent as text', { contactPersons: 'x' }],
    ['the list of people sent as text', { 'contactPersons.people': 'x' }],
    ['a row the form does not have', { 'contactPersons.people[99999].name': '1' }],
    ['a row on a path the form does not use', { 'contactPersons[99999].name': '1' }],
    ['a field the form does not have', { 'outreach.subtitle': 'x' }],
    [
      'a crafted intent that turns a list into text',
      { __intent__: JSON.stringify({ type: 'update', payload: { name: 'contactPersons.people', value: 'x' } }) },
    ],
    [
      'a crafted intent that adds rows',
      { __intent__: JSON.stringify({ type: 'insert', payload: { name: 'contactPersons.people', index: 99999 } }) },
    ],
    ['an intent that is not JSON', { __intent__: '{' }],
  ])('answers %s with 400 and a clear message, and saves nothing', async (_case, crafted) => {
    const response = await post(server, ABOUT_URL, { ...aboutForm(unsaved), ...crafted }, cookie)
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain(UNREADABLE)
    expect(html).not.toContain('There is a problem')
    expect(html).not.toMatch(/at \w+ \(/)
    // The editor still shows its four contact person rows, no more.
    expect(html.match(/<legend>Contact person \d/g)).toHaveLength(4)
    expect(html).not.toContain('contactPersons.people[4]')
    expect(await aboutPage()).not.toContain(unsaved)
  })

  it('answers a field sent twice with 400', async () => {
    const body = new URLSearchParams(aboutForm(unsaved))
    body.append('outreach.heading', 'A second heading')
    const response = await fetch(server.url + ABOUT_URL, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain(UNREADABLE)
  })

  it('shows the per-field message for a missing text, without the unreadable-form message', async () => {
    const response = await post(server, ABOUT_URL, aboutForm('   '), cookie)
    expect(response.status).toBe(400)
    const html = await response.text()
    // The summary at the top names the group of the text and links to its field.
    expect(html).toContain('There is a problem')
    expect(html).toMatch(/<a href="#page-texts-about-outreach\.heading">Outreach[^<]*: Heading is required<\/a>/)
    expect(html).not.toContain(UNREADABLE)
  })

  it('saves the form the editor sends and shows the change on the public page', async () => {
    const response = await post(server, ABOUT_URL, aboutForm('Reaching Every Family'), cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(ABOUT_URL)
    expect(await aboutPage()).toContain('Reaching Every Family')
  })
})
