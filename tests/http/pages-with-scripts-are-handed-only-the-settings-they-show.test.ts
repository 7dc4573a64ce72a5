import { expect, it } from 'vitest'
import { get } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'
import { DEMO_SITE_SETTINGS } from '../../app/modules/settings/settings.demo'

// Every page that ships scripts carries the root loader's data for them; the bank accounts and
// the impact figures are sent only by the pages that show them.
const { server, admin } = await startServerForFileSignedIn()

const [account] = DEMO_SITE_SETTINGS.bankAccounts
const [figure] = DEMO_SITE_SETTINGS.impactFigures
const HAND_OVER = 'window.__reactRouterContext.streamController.enqueue('

it('hands a page with scripts neither the bank accounts nor the impact figures', async () => {
  for (const [path, cookie] of [
    ['/news', undefined],
    ['/calendar', undefined],
    ['/admin/news', admin],
  ] as const) {
    const html = await (await get(server, path, cookie)).text()
    expect(html, path).toContain(HAND_OVER)
    expect(html, path).toContain(DEMO_SITE_SETTINGS.organisationName)
    expect(html, path).not.toContain(account.accountNumber)
    expect(html, path).not.toContain(account.bank)
    expect(html, path).not.toContain(figure.description)
  }
})

it('shows them on the pages that have them, to visitors and signed-in users alike', async () => {
  for (const cookie of [undefined, admin]) {
    const support = await (await get(server, '/support', cookie)).text()
    expect(support).toContain(account.accountNumber)
    expect(support).toContain(account.bank)
    for (const path of ['/', '/services', '/impact']) {
      expect(await (await get(server, path, cookie)).text(), path).toContain(figure.label)
    }
  }
  // What a page with scripts asks for when a visitor moves from /news to the support page inside
  // the site: the support route's data alone (the root's is not fetched again).
  const data = await (await get(server, `/support.data?_routes=${encodeURIComponent('routes/public/support')}`)).text()
  expect(data).toContain(account.accountNumber)
  expect(data).not.toContain(DEMO_SITE_SETTINGS.tagline)
})
