import { describe, expect, it } from 'vitest'
import { parseCsv, readCsvFile, toCsv } from './csv'

describe('CSV files', () => {
  it('reads quoted fields with commas, quotes and line breaks, and skips empty lines', () => {
    expect(parseCsv('email,first name\r\nann@example.org,"Ann, ""Annie"""\n\n"bob@example.org","Bo\nb"\n')).toEqual([
      ['email', 'first name'],
      ['ann@example.org', 'Ann, "Annie"'],
      ['bob@example.org', 'Bo\nb'],
    ])
  })

  it('writes formulas as text, and phone numbers and addresses starting with + or - as they are', () => {
    const kept = [['+12685550101', '+1 268 555 0101', '+plus@example.net', '-minus@example.net', 'Zoë', 'Ann, "Annie"']]
    const formulas = [
      ['=1+1', '+SUM(A1:A2)', '-HYPERLINK("http://example.com")', '@SUM(A1)', "+cmd|'/c calc'!A0", '\tTab', '\rReturn'],
    ]
    expect(parseCsv(toCsv(kept))).toEqual(kept)
    expect(parseCsv(toCsv(formulas))).toEqual([formulas[0].map((value) => `'${value}`)])
    expect(
      toCsv([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('a,b\r\nc,d\r\n')
  })

  it('reads a UTF-8 file, with or without a byte order mark, and refuses another encoding', async () => {
    expect(await readCsvFile(new Blob(['\uFEFFzoe@example.org,Zoë\n']))).toBe('zoe@example.org,Zoë\n')
    expect(await readCsvFile(new Blob(['zoe@example.org,Zoë\n']))).toBe('zoe@example.org,Zoë\n')
    // "Zoë" as Excel's CSV writes it on Windows (Windows-1252: ë is one byte, 0xEB).
    expect(await readCsvFile(new Blob([Buffer.from('zoe@example.org,Zo\xeb\n', 'latin1')]))).toBeNull()
  })
})
