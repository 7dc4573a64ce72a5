import { execFileSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { addDays, todayIn, wallClockIn } from '../../app/platform/dates'
import { MailCatcher } from '../fixtures/mail-catcher'
import { get, post, signIn } from '../setup/http-session'
import { queryServerDatabase } from '../setup/server-database'
import { startTestServer } from '../setup/server'

// The CSV files an administrator downloads and uploads, read by Python's csv module as a
// spreadsheet would: phone numbers and addresses as they were, formulas as text, readable times,
// and a file saved in another encoding than UTF-8 refused in plain words.
const ZONE = 'America/Antigua'
const date = addDays(todayIn(ZONE), 3)
const mail = new MailCatcher()
await mail.start()
const server = await startTestServer({ SMTP_URL: mail.url, TRUST_PROXY: 'true' })
const admin = await signIn(server)

afterAll(async () => {
  await server.stop()
  await mail.stop()
})

/** The rows of a CSV text as Python's csv module reads them. */
function readWithPython(csv: string): string[][] {
  const script = 'import csv, io, json, sys\nprint(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline="")))))'
  return JSON.parse(execFileSync('python3', ['-c', script], { input: csv, encoding: 'utf8' }))
}

function importFile(bytes: Uint8Array<ArrayBuffer>) {
  const form = new FormData()
  form.set('intent', 'import')
  form.set('file', new Blob([bytes], { type: 'text/csv' }), 'subscribers.csv')
  return fetch(`${server.url}/admin/subscribers`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: server.url, cookie: admin },
    body: form,
  })
}

describe('the sign-ups CSV', () => {
  it('keeps WhatsApp numbers as they are, writes formulas as text, and says when in the site’s time', async () => {
    const saved = await post(
      server,
      '/admin/events/new',
      {
        title: 'Beach clean-up',
        description: 'Gloves and bags are provided.',
        location: 'Fort Bay',
        type: 'event',
        startDate: date,
        startTime: '09:00',
        repeat: 'none',
        repeatEnds: 'never',
        takesSignups: 'on',
        signupLimit: '10',
        signupContact: 'whatsapp',
        signupClosesHoursBefore: '0',
        publish: 'now',
      },
      admin,
    )
    expect(saved.status).toBe(302)
    for (const [name, whatsapp, address] of [
      ['Zoë Joseph', '+1 268 555 0101', '198.51.100.1'],
      ['=HYPERLINK("http://example.com")', '+1 268 555 0102', '198.51.100.2'],
    ]) {
      const signedUp = await post(server, `/calendar/beach-clean-up?date=${date}`, { date, name, whatsapp }, undefined, {
        'x-forwarded-for': address,
      })
      expect(signedUp.status).toBe(303)
    }
    const [event] = await queryServerDatabase<{ id: string }>(server, `select id from events where slug = 'beach-clean-up'`)
    const [first] = await queryServerDatabase<{ created_at: string }>(
      server,
      `select created_at from event_signups where name = 'Zoë Joseph'`,
    )

    const csv = await (await get(server, `/admin/events/${event.id}/signups.csv?date=${date}`, admin)).text()
    const signedUpAt = wallClockIn(first.created_at, ZONE)
    expect(readWithPython(csv)).toEqual([
      ['Name', 'E-mail', 'WhatsApp', 'People', 'Status', 'Signed up (America/Antigua time)'],
      ['Zoë Joseph', '', '+12685550101', '1', 'confirmed', `${signedUpAt.date} ${signedUpAt.time}`],
      [
        `'=HYPERLINK("http://example.com")`,
        '',
        '+12685550102',
        '1',
        'confirmed',
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      ],
    ])
  })
})

describe('the subscribers CSV', () => {
  it('refuses a file saved as Windows-1252 with how to save it as UTF-8, and imports nothing', async () => {
    // What Excel's plain "CSV (Comma delimited)" writes on Windows: ë is the single byte 0xEB.
    const refused = await importFile(Buffer.from('email,first name\r\nzoe@example.org,Zo\xeb\r\n', 'latin1'))
    expect(refused.status).toBe(400)
    const page = (await refused.text()).replaceAll('&#x27;', "'")
    expect(page).toContain('The file is not saved as UTF-8, so letters such as ë or ñ would be lost; nothing was imported.')
    expect(page).toContain('CSV UTF-8 (Comma delimited)')
    expect(await queryServerDatabase(server, `select id from subscribers where email = 'zoe@example.org'`)).toEqual([])
  })

  it('imports the same file saved as UTF-8 by Excel (with its byte order mark), and exports addresses as they are', async () => {
    const utf8 = Buffer.from('\uFEFFemail,first name\r\nzoe@example.org,Zoë\r\n+plus@example.net,Pat\r\n', 'utf8')
    expect((await importFile(utf8)).status).toBe(302)
    const csv = await (await get(server, '/admin/subscribers/export.csv', admin)).text()
    const rows = readWithPython(csv).map(([email, firstName]) => [email, firstName])
    expect(rows).toEqual(
      expect.arrayContaining([
        ['zoe@example.org', 'Zoë'],
        ['+plus@example.net', 'Pat'],
      ]),
    )
  })
})
