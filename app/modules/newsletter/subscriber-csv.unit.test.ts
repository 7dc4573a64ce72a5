import { describe, expect, it } from 'vitest'
import { parseCsv, toCsv } from './subscriber-csv'

describe('subscriber CSV files', () => {
  it('reads quoted fields with commas, quotes and line breaks, and skips empty lines', () => {
    expect(parseCsv('email,first name\r\nann@example.org,"Ann, ""Annie"""\n\n"bob@example.org","Bo\nb"\n')).toEqual([
      ['email', 'first name'],
      ['ann@example.org', 'Ann, "Annie"'],
      ['bob@example.org', 'Bo\nb'],
    ])
  })

  it('writes what it reads back, and formulas as text', () => {
    const rows = [
      ['a@example.org', 'Ann, "Annie"'],
      ['b@example.org', '=HYPERLINK("x")'],
    ]
    const csv = toCsv(rows)
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`)
    expect(parseCsv(csv)).toEqual([rows[0], ['b@example.org', `'=HYPERLINK("x")`]])
  })
})
