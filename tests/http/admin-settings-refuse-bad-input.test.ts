import { describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'

const { server, admin: cookie } = await startServerForFileSignedIn()

const valid = { organisationName: 'Hearts of Hope Ministry', email: 'info@example.org', timeZone: 'America/Antigua' }

async function footerOfHome() {
  const html = await (await get(server, '/')).text()
  return html.slice(html.indexOf('<footer'))
}

describe('the settings form on the server', () => {
  it.each([
    ['an unknown time zone', { ...valid, timeZone: 'Mars/Olympus_Mons', phone: '+1 268 555 0111' }],
    ['a malformed e-mail', { ...valid, email: 'info@', phone: '+1 268 555 0111' }],
    ['a bank account that is a string', { ...valid, bankAccounts: 'x', phone: '+1 268 555 0111' }],
    ['a row index out of any sensible range', { ...valid, 'impactFigures[99999].value': '1', phone: '+1 268 555 0111' }],
    [
      'a crafted intent that turns a list into text',
      {
        ...valid,
        __intent__: JSON.stringify({ type: 'update', payload: { name: 'bankAccounts', value: 'x' } }),
        phone: '+1 268 555 0111',
      },
    ],
    ['an intent that is not JSON', { ...valid, __intent__: '{', phone: '+1 268 555 0111' }],
  ])('answers %s with 400 and saves nothing', async (_case, fields) => {
    const response = await post(server, '/admin/settings', fields, cookie)
    expect(response.status).toBe(400)
    expect(await response.text()).not.toMatch(/at \w+ \(/)
    expect(await footerOfHome()).not.toContain('555 0111')
  })

  it('starts its answer with a summary of the problems that links to each field', async () => {
    const response = await post(server, '/admin/settings', { ...valid, email: 'info@', organisationName: '' }, cookie)
    expect(response.status).toBe(400)
    const html = await response.text()
    const summary = html.slice(html.indexOf('class="error-summary"'), html.indexOf('<fieldset'))
    expect(summary).toContain('There is a problem')
    expect(summary).toContain('<a href="#settings-organisationName">Organisation name is required</a>')
    expect(summary).toContain('<a href="#settings-email">Enter an e-mail address like info@example.org</a>')
    // The fields the links lead to.
    expect(html).toContain('id="settings-organisationName"')
    expect(html).toContain('id="settings-email"')
  })

  it('saves a valid form and shows the change on the public site', async () => {
    const response = await post(server, '/admin/settings', { ...valid, phone: '+1 268 555 0122' }, cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/admin/settings')
    expect(await footerOfHome()).toContain('+1 268 555 0122')
  })
})
