import { toCsv } from '~/platform/csv'
import { wallClockIn } from '~/platform/dates'

/** The sign-ups of a date as a CSV file that spreadsheets open safely. */

export interface CsvSignup {
  name: string
  email: string | null
  whatsapp: string | null
  partySize: number
  status: 'confirmed' | 'waiting'
  createdAt: string
}

/** Times as the site's clock shows them, '2026-12-01 17:55', which people read and spreadsheets take as a date and time. */
function spreadsheetTime(instant: string, timeZone: string): string {
  const { date, time } = wallClockIn(instant, timeZone)
  return `${date} ${time}`
}

export function signupsCsv(rows: CsvSignup[], timeZone: string): string {
  return toCsv([
    ['Name', 'E-mail', 'WhatsApp', 'People', 'Status', `Signed up (${timeZone} time)`],
    ...rows.map((r) => [
      r.name,
      r.email ?? '',
      // In full with its +, in one piece: a spreadsheet keeps it as the text it is.
      r.whatsapp ? `+${r.whatsapp}` : '',
      String(r.partySize),
      r.status === 'confirmed' ? 'confirmed' : 'waiting list',
      spreadsheetTime(r.createdAt, timeZone),
    ]),
  ])
}
