import { isRecord, type FormNode, type FormShape } from './form-shape'

/**
 * Keeps a posted form to what the form's schema can read, before conform parses it. Conform builds
 * its value from whatever names a request carries: repeated names are joined one copy at a time
 * (quadratic), `x[10000000]` becomes an array of ten million holes that the reply echoes back, and
 * an intent can turn a list into text. So every form's entries pass through here first: known
 * names only, once each (a list's name up to its maximum), rows only within the list's maximum,
 * File values only where a file is expected, and only the row buttons' intents.
 */

/** What a route answers (with status 400) when a request carries anything else. */
export const UNREADABLE_FORM_MESSAGE = 'The form could not be read. Please reload the page and try again.'

/** A value with no declared maximum is still read, but not sent back in a reply when longer than this. */
const DEFAULT_ECHO_LIMIT = 1000

export interface FormEntries {
  /** The entries the form can send, ready for conform. */
  entries: FormData
  /** Names whose values are too long to send back in a reply. */
  unechoed: string[]
}

// conform's field for intent buttons.
const INTENT_FIELD = '__intent__'
// One segment of a conform name: `.key` (or a first key) or `[index]` without leading zeros.
const NAME_SEGMENT = /(?:^|\.)([^.[\]]+)|\[(0|[1-9]\d{0,5})\]/y

/** The request's entries that the form can send, or null when it carries anything else. */
export function keepFormEntries(shape: FormShape, formData: FormData): FormEntries | null {
  const entries = new FormData()
  const unechoed: string[] = []
  const counts = new Map<string, number>()
  let total = 0
  for (const [name, value] of formData) {
    if (++total > shape.maxEntries) return null
    if (name === INTENT_FIELD) {
      if (!shape.listButtons || entries.has(name) || typeof value !== 'string' || !isRowIntent(shape.root, value)) {
        return null
      }
      entries.append(name, value)
      continue
    }
    const target = fieldAt(shape.root, name)
    if (!target) return null
    const count = counts.get(name) ?? 0
    if (count >= target.times) return null
    counts.set(name, count + 1)
    const { field } = target
    if (field.kind === 'file') {
      if (typeof value === 'string') return null
    } else {
      if (typeof value !== 'string') return null
      if (value.length > (field.maxLength ?? DEFAULT_ECHO_LIMIT) && !unechoed.includes(name)) unechoed.push(name)
    }
    entries.append(name, value)
  }
  return { entries, unechoed }
}

/** The field a name leads to and how many values it may carry (a list of plain values: its maximum). */
function fieldAt(root: FormNode, name: string): { field: Extract<FormNode, { kind: 'text' | 'file' }>; times: number } | null {
  const path = pathOf(name)
  if (!path) return null
  let node: FormNode | undefined = root
  for (const segment of path) {
    if (node.kind === 'object' && typeof segment === 'string') node = node.fields.get(segment)
    else if (node.kind === 'list' && typeof segment === 'number' && segment < node.max) node = node.item
    else return null
    if (!node) return null
  }
  if (node.kind === 'text' || node.kind === 'file') return { field: node, times: 1 }
  if (node.kind === 'list' && (node.item.kind === 'text' || node.item.kind === 'file')) {
    return { field: node.item, times: node.max }
  }
  return null
}

/** A name's segments, or null unless it is written exactly as conform writes it. */
function pathOf(name: string): Array<string | number> | null {
  const path: Array<string | number> = []
  NAME_SEGMENT.lastIndex = 0
  while (NAME_SEGMENT.lastIndex < name.length) {
    const start = NAME_SEGMENT.lastIndex
    const match = NAME_SEGMENT.exec(name)
    // A leading dot (`.a`) is no name a form writes.
    if (!match || (match[1] !== undefined && start === 0 && name.startsWith('.'))) return null
    path.push(match[1] ?? Number(match[2]))
  }
  return path.length > 0 ? path : null
}

function listAt(root: FormNode, name: string): Extract<FormNode, { kind: 'list' }> | null {
  const path = pathOf(name)
  if (!path) return null
  let node: FormNode | undefined = root
  for (const segment of path) {
    if (node.kind === 'object' && typeof segment === 'string') node = node.fields.get(segment)
    else return null
    if (!node) return null
  }
  return node.kind === 'list' && node.item.kind === 'object' ? node : null
}

/** Only the insert and remove buttons of a list of rows, at an index the list can have. */
function isRowIntent(root: FormNode, value: string): boolean {
  let intent: unknown
  try {
    intent = JSON.parse(value)
  } catch {
    return false
  }
  if (!isRecord(intent) || (intent.type !== 'insert' && intent.type !== 'remove')) return false
  const { payload } = intent
  if (!isRecord(payload) || typeof payload.name !== 'string') return false
  const list = listAt(root, payload.name)
  if (!list) return false
  const { index } = payload
  const validIndex = typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < list.max
  return Object.keys(payload).every((key) => key === 'name' || (key === 'index' && validIndex))
}
