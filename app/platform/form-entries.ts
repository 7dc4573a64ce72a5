/**
 * Keeps a posted form to what the form on the page can send, before conform parses it. Conform
 * builds its value from whatever names a request carries, so a crafted request could otherwise
 * turn a list into text (a 500 when the page renders it), ask for row 99,999 (a page of 100,000
 * empty rows) or send an intent that rewrites a field.
 */

/** What a route answers (with status 400) when a request carries anything else. */
export const UNREADABLE_FORM_MESSAGE = 'The form could not be read. Please reload the page and try again.'

/** A list whose rows the form adds and removes with conform's insert and remove buttons. */
export interface FormList {
  max: number
  /** The fields of one row: a row's entries are named `<list>[<index>].<field>`. */
  fields: readonly string[]
}

export interface FormShape {
  /** The names of the form's fixed fields, in conform's path syntax (`hero.title`, `items[0].text`). */
  fields: Iterable<string>
  /** The lists with add and remove buttons, by name; their intents are the only ones accepted. */
  lists?: Record<string, FormList>
}

export interface FormEntries {
  /** The entries the form can send, each name once. */
  entries: FormData
  /** Whether anything else was in the request (and left out of `entries`). */
  dropped: boolean
}

// conform's field for intent buttons.
const INTENT_FIELD = '__intent__'
const ROW_FIELD = /^(.+)\[(0|[1-9]\d{0,2})\]\.(\w+)$/

/** Makes a filter for one form; give it the request's form data, then parse `entries` with conform. */
export function formEntriesFilter(shape: FormShape): (formData: FormData) => FormEntries {
  const fields = new Set(shape.fields)
  const lists = new Map(Object.entries(shape.lists ?? {}))

  function isRowField(name: string): boolean {
    const match = ROW_FIELD.exec(name)
    const list = match && lists.get(match[1])
    return !!list && Number(match[2]) < list.max && list.fields.includes(match[3])
  }

  function isRowIntent(value: string): boolean {
    let intent: unknown
    try {
      intent = JSON.parse(value)
    } catch {
      return false
    }
    if (!isRecord(intent) || (intent.type !== 'insert' && intent.type !== 'remove')) return false
    const { payload } = intent
    if (!isRecord(payload) || typeof payload.name !== 'string') return false
    const list = lists.get(payload.name)
    if (!list) return false
    const { index } = payload
    const validIndex = typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < list.max
    return Object.keys(payload).every((key) => key === 'name' || (key === 'index' && validIndex))
  }

  return (formData) => {
    const entries = new FormData()
    let dropped = false
    for (const [name, value] of formData) {
      const expected =
        typeof value === 'string' &&
        !entries.has(name) &&
        (fields.has(name) || isRowField(name) || (name === INTENT_FIELD && isRowIntent(value)))
      if (expected) entries.append(name, value)
      else dropped = true
    }
    return { entries, dropped }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
