/** CSV files (RFC 4180): read as spreadsheets write them, written so spreadsheets open them safely with every value as it was. */

/** The rows of a CSV text: fields split on commas, quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += text[++i]
      else if (c === '"') quoted = false
      else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (field !== '' || row.length > 0) rows.push([...row, field])
  return rows.filter((r) => r.some((value) => value.trim() !== ''))
}

/** Calc and Excel run a cell starting with one of these as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/
/**
 * A value starting with + or - that holds only letters, digits, spaces and . _ + - @: a phone number
 * (+12685550101) or an address (+plus@example.net). Without brackets, quotes, | or ! a formula can call
 * no function, other file or program, so the value is written as it is.
 */
const PLAIN_SIGNED_VALUE = /^[+-][\p{L}\p{N} ._+\-@]*$/u

/** One field: text a spreadsheet could run as a formula gets a leading ' so it is shown as text. */
function csvField(value: string): string {
  const safe = FORMULA_START.test(value) && !PLAIN_SIGNED_VALUE.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/** Rows as a CSV text, each line ended by CRLF. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n'
}

/**
 * The text of an uploaded CSV file, or null when it is not UTF-8: Excel's plain "CSV" is Windows-1252
 * (or another code page, which nothing in the file names), and read as UTF-8 its "Zoë" would become "Zo�".
 * A byte order mark, which Excel's "CSV UTF-8" starts with, is dropped.
 */
export async function readCsvFile(file: Blob): Promise<string | null> {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer())
  } catch {
    return null
  }
}
