/** The sign-ups of a date as a CSV file (RFC 4180) that spreadsheets open safely. */

export interface CsvSignup {
  name: string
  email: string | null
  whatsapp: string | null
  partySize: number
  status: 'confirmed' | 'waiting'
  createdAt: string
}

/** A cell quoted as RFC 4180 says; text a spreadsheet would run as a formula (=, +, -, @) is kept as text. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return `"${safe.replaceAll('"', '""')}"`
}

export function signupsCsv(rows: CsvSignup[]): string {
  const lines = [['Name', 'E-mail', 'WhatsApp', 'People', 'Status', 'Signed up (UTC)']]
  for (const r of rows) {
    lines.push([
      r.name,
      r.email ?? '',
      r.whatsapp ?? '',
      String(r.partySize),
      r.status === 'confirmed' ? 'confirmed' : 'waiting list',
      r.createdAt,
    ])
  }
  return lines.map((line) => line.map(cell).join(',')).join('\r\n') + '\r\n'
}
