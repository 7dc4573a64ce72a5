/*
 * What the editor's toolbar does to the text: each action says which part of the text to replace,
 * with what, and what to select afterwards, so the editor can make the change as one typed edit
 * (which the browser can undo).
 */

export interface TextSelection {
  text: string
  start: number
  end: number
}

export interface TextEdit {
  /** The part of the text replaced. */
  from: number
  to: number
  insert: string
  /** The selection afterwards. */
  selectStart: number
  selectEnd: number
}

export type MarkdownAction = 'bold' | 'italic' | 'heading' | 'list' | 'quote' | 'link'

function wrap({ text, start, end }: TextSelection, mark: string, placeholder: string): TextEdit {
  const before = text.slice(0, start)
  const after = text.slice(end)
  const other = mark === '*' ? '**' : '***'
  const wrapped = before.endsWith(mark) && after.startsWith(mark) && !(before.endsWith(other) && after.startsWith(other))
  if (wrapped) {
    // Pressed again: take the marks away.
    const from = start - mark.length
    return { from, to: end + mark.length, insert: text.slice(start, end), selectStart: from, selectEnd: end - mark.length }
  }
  const selected = text.slice(start, end) || placeholder
  return {
    from: start,
    to: end,
    insert: mark + selected + mark,
    selectStart: start + mark.length,
    selectEnd: start + mark.length + selected.length,
  }
}

const LINE_PREFIX = { heading: '## ', list: '- ', quote: '> ' } as const

function prefixLines({ text, start, end }: TextSelection, prefix: string): TextEdit {
  const from = text.lastIndexOf('\n', start - 1) + 1
  const lineEnd = text.indexOf('\n', end)
  const to = lineEnd === -1 ? text.length : lineEnd
  const lines = text.slice(from, to).split('\n')
  const all = lines.every((line) => line.startsWith(prefix))
  const insert = lines
    .map((line) => (all ? line.slice(prefix.length) : line.startsWith(prefix) ? line : prefix + line))
    .join('\n')
  return { from, to, insert, selectStart: from + insert.length, selectEnd: from + insert.length }
}

function link({ text, start, end }: TextSelection): TextEdit {
  const selected = text.slice(start, end)
  if (/^(https?:\/\/|\/)\S*$/.test(selected)) {
    const label = 'link text'
    return {
      from: start,
      to: end,
      insert: `[${label}](${selected})`,
      selectStart: start + 1,
      selectEnd: start + 1 + label.length,
    }
  }
  const label = selected || 'link text'
  const address = 'https://'
  const at = start + label.length + 3
  return { from: start, to: end, insert: `[${label}](${address})`, selectStart: at, selectEnd: at + address.length }
}

export function markdownEdit(action: MarkdownAction, selection: TextSelection): TextEdit {
  switch (action) {
    case 'bold':
      return wrap(selection, '**', 'bold text')
    case 'italic':
      return wrap(selection, '*', 'italic text')
    case 'link':
      return link(selection)
    default:
      return prefixLines(selection, LINE_PREFIX[action])
  }
}
