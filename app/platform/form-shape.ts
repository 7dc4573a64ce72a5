import type { $ZodType } from 'zod/v4/core'

/**
 * The shape of the form a zod schema reads: its names, how many values each may carry and how
 * long they may be. form-entries.ts keeps a posted form to it.
 */

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
      return input.kind === 'text' && output.kind === 'text'
        ? { kind: 'text', maxLength: lower(input.maxLength, output.maxLength) }
        : input
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
    return {
      kind: 'text',
      maxLength: a.maxLength === undefined || b.maxLength === undefined ? undefined : Math.max(a.maxLength, b.maxLength),
    }
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
