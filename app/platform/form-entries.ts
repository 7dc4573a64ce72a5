import type { $ZodType } from 'zod/v4/core'

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

/** The part of a form a name leads to, read from the schema. */
export type FormNode =
  | { kind: 'object'; fields: Map<string, FormNode> }
  | { kind: 'list'; max: number; item: FormNode }
  | { kind: 'text'; maxLength?: number }
  | { kind: 'file' }

export interface FormShape {
  root: FormNode
  /** The most entries the form can send; a request with more is refused unread. */
  maxEntries: number
  /** Whether the form has add-row and remove-row buttons (conform's insert and remove intents). */
  listButtons: boolean
}

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
const MAX_DEPTH = 12

const shapes = new WeakMap<$ZodType, FormNode>()

/** The shape of the form that `schema` reads; `listButtons` accepts the add and remove row intents. */
export function formShapeOf(schema: $ZodType, { listButtons = false } = {}): FormShape {
  let root = shapes.get(schema)
  if (!root) {
    root = nodeOf(schema, '', 0)
    if (root.kind !== 'object') throw new Error('A form schema must be an object')
    shapes.set(schema, root)
  }
  return { root, maxEntries: entriesOf(root) + (listButtons ? 1 : 0), listButtons }
}

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

function entriesOf(node: FormNode): number {
  switch (node.kind) {
    case 'object':
      return [...node.fields.values()].reduce((sum, field) => sum + entriesOf(field), 0)
    case 'list':
      return node.max * entriesOf(node.item)
    default:
      return 1
  }
}

// The parts of zod's definitions that a form's shape depends on.
interface ZodDef {
  type: string
  shape?: Record<string, $ZodType>
  element?: $ZodType
  innerType?: $ZodType
  in?: $ZodType
  out?: $ZodType
  options?: $ZodType[]
  left?: $ZodType
  right?: $ZodType
  values?: unknown[]
  entries?: Record<string, unknown>
  getter?: () => $ZodType
  checks?: Array<{ _zod: { def: { check: string; maximum?: number; length?: number } } }>
}

function nodeOf(schema: $ZodType, path: string, depth: number): FormNode {
  if (depth > MAX_DEPTH) throw new Error(`A form schema is nested too deeply at ${path}`)
  const def = schema._zod.def as unknown as ZodDef
  const inner = (child: $ZodType) => nodeOf(child, path, depth + 1)
  switch (def.type) {
    case 'object': {
      const fields = new Map<string, FormNode>()
      for (const [key, field] of Object.entries(def.shape!)) fields.set(key, nodeOf(field, join(path, key), depth + 1))
      return { kind: 'object', fields }
    }
    case 'array': {
      const max = lengthLimit(def)
      if (max === undefined) throw new Error(`A list in a form needs a maximum length: ${path}`)
      return { kind: 'list', max, item: nodeOf(def.element!, `${path}[]`, depth + 1) }
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return inner(def.innerType!)
    case 'lazy':
      return inner(def.getter!())
    case 'pipe': {
      // The form sends what the pipe reads; a transform (or preprocess) side says nothing about it.
      const input = def.in!._zod.def.type === 'transform' ? null : inner(def.in!)
      const output = def.out!._zod.def.type === 'transform' ? null : inner(def.out!)
      if (!input || !output) return (input ?? output)!
      return input.kind === 'text' && output.kind === 'text' ? { kind: 'text', maxLength: lower(input.maxLength, output.maxLength) } : input
    }
    case 'union':
      return def.options!.map(inner).reduce(either)
    case 'intersection':
      return either(inner(def.left!), inner(def.right!))
    case 'file':
      return { kind: 'file' }
    case 'custom':
      return (schema._zod.bag as { Class?: unknown }).Class === File ? { kind: 'file' } : { kind: 'text' }
    case 'string':
      return { kind: 'text', maxLength: lengthLimit(def) }
    case 'enum':
      return { kind: 'text', maxLength: longest(Object.values(def.entries!)) }
    case 'literal':
      return { kind: 'text', maxLength: longest(def.values!) }
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'date':
    case 'any':
    case 'unknown':
      return { kind: 'text' }
    default:
      throw new Error(`A form cannot read a ${def.type} at ${path || 'its root'}`)
  }
}

/** A field that may be either of two shapes (the options of a union): everything both accept. */
function either(a: FormNode, b: FormNode): FormNode {
  if (a.kind === 'object' && b.kind === 'object') {
    const fields = new Map(a.fields)
    for (const [key, field] of b.fields) fields.set(key, fields.has(key) ? either(fields.get(key)!, field) : field)
    return { kind: 'object', fields }
  }
  if (a.kind === 'list' && b.kind === 'list') return { kind: 'list', max: Math.max(a.max, b.max), item: either(a.item, b.item) }
  if (a.kind === 'text' && b.kind === 'text') {
    return { kind: 'text', maxLength: a.maxLength === undefined || b.maxLength === undefined ? undefined : Math.max(a.maxLength, b.maxLength) }
  }
  if (a.kind === 'file' && b.kind === 'file') return a
  throw new Error('A form field cannot be both a ' + a.kind + ' and a ' + b.kind)
}

function lengthLimit(def: ZodDef): number | undefined {
  let limit: number | undefined
  for (const check of def.checks ?? []) {
    const { check: kind, maximum, length } = check._zod.def
    if (kind === 'max_length') limit = lower(limit, maximum)
    if (kind === 'length_equals') limit = lower(limit, length)
  }
  return limit
}

function lower(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b)
}

function longest(values: unknown[]): number {
  return Math.max(0, ...values.map((value) => String(value).length))
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
