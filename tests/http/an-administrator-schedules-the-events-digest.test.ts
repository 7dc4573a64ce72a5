import { describe, expect, it } from 'vitest'
import { get, post } from '../setup/http-session'
import { startServerForFileSignedIn } from '../setup/server-for-file'
import { queryServerDatabase } from '../setup/server-database'

const { server, admin } = await startServerForFileSignedIn()

async function subscribersPage(): Promise<string> {
  const response = await get(server, '/admin/subscribers', admin)
  expect(response.status).toBe(200)
  return response.text()
}

/** The option of the day chosen on the page: its value, '' for "only with the button". */
function chosenDay(page: string): string | undefined {
  const select = page.match(/<select id="digest-day"[\s\S]*?<\/select>/)?.[0] ?? ''
  return select
    .match(/<option (?:selected="" )?value="(\d*)"(?: selected="")?>/g)
    ?.find((o) => o.includes('selected'))
    ?.match(/value="(\d*)"/)?.[1]
}

describe('the events digest schedule', () => {
  it('goes out only by the button until a day is chosen', async () => {
    const page = await subscribersPage()
    expect(page).toContain('Never: only with the button')
    expect(page).toContain('On the 28th of each month')
    expect(page).not.toContain('On the 29th of each month')
    expect(page).toContain('Nothing goes out unless you press the button above.')
  })

  it.each([['31'], ['0'], ['two'], ['1.5']])('refuses the day %s with a message, and changes nothing', async (day) => {
    const response = await post(server, '/admin/subscribers', { intent: 'digest-schedule', day }, admin)
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('Choose a day from the list.')
    expect(await queryServerDatabase(server, "select value from settings where key = 'events-digest'")).toEqual([])
  })

  it('takes a day, shows when it goes out next, is in the audit log, and is taken back', async () => {
    const saved = await post(server, '/admin/subscribers', { intent: 'digest-schedule', day: '12' }, admin)
    expect(saved.status).toBe(302)
    let page = await subscribersPage()
    expect(chosenDay(page)).toBe('12')
    expect(page).toMatch(/Next: \w+ 12, \d{4}, in the site/)
    const [entry] = await queryServerDatabase<{ detail: string }>(
      server,
      "select detail from audit_events where action = 'digest.scheduled'",
    )
    expect(JSON.parse(entry.detail)).toEqual({ day: 12, previousDay: null })

    expect((await post(server, '/admin/subscribers', { intent: 'digest-schedule', day: '' }, admin)).status).toBe(302)
    page = await subscribersPage()
    expect(chosenDay(page)).toBe('')
    expect(page).toContain('Nothing goes out unless you press the button above.')
  })
})
