import { AddSubscriberSchema, type AddSubscriberInput, TOPICS } from './newsletter.schema'
import { parseCsv } from '~/platform/csv'

/** Rows one import may hold: a larger list is split into several files. */
export const IMPORT_MAX_ROWS = 2000
export const IMPORT_MAX_BYTES = 512 * 1024

const DEFAULT_TOPICS = ['news', 'events'] as const

/**
 * The people of an imported CSV: e-mail, first name (optional) and topics (optional, separated by
 * spaces or semicolons: news, events, marketplace; news and events when empty). A first row without
 * an address is taken as headings. Each refused row is named with its line.
 */
export function readSubscriberImport(text: string): { people: AddSubscriberInput[]; problems: string[] } {
  const rows = parseCsv(text)
  if (rows.length > 0 && !rows[0][0]?.includes('@')) rows.shift()
  if (rows.length > IMPORT_MAX_ROWS) {
    return { people: [], problems: [`The file has ${rows.length} rows; import at most ${IMPORT_MAX_ROWS} at a time.`] }
  }
  const people: AddSubscriberInput[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  rows.forEach(([email = '', firstName = '', topics = ''], index) => {
    const named = topics
      .toLowerCase()
      .split(/[\s;]+/)
      .filter(Boolean)
    const parsed = AddSubscriberSchema.safeParse({
      email,
      firstName,
      topics: named.length > 0 ? named : [...DEFAULT_TOPICS],
    })
    if (!parsed.success) {
      problems.push(`Row ${index + 1}: ${parsed.error.issues[0]?.message ?? 'not readable'} (topics: ${TOPICS.join(', ')})`)
      return
    }
    const key = parsed.data.email.toLowerCase()
    if (seen.has(key)) return
    seen.add(key)
    people.push(parsed.data)
  })
  return { people, problems }
}
