import { describe, expect, it } from 'vitest'
import { markdownEdit, type MarkdownAction, type TextEdit } from './markdown-formatting'

/** The text after the edit, with the selection shown as [[…]]. */
function press(action: MarkdownAction, marked: string): string {
  const start = marked.indexOf('[[')
  const end = marked.indexOf(']]') - 2
  const text = marked.replace('[[', '').replace(']]', '')
  const edit: TextEdit = markdownEdit(action, { text, start, end })
  const after = text.slice(0, edit.from) + edit.insert + text.slice(edit.to)
  return (
    after.slice(0, edit.selectStart) + '[[' + after.slice(edit.selectStart, edit.selectEnd) + ']]' + after.slice(edit.selectEnd)
  )
}

describe('the toolbar writes Markdown around the selection', () => {
  it.each<[MarkdownAction, string, string]>([
    ['bold', 'We gave [[rice]] today', 'We gave **[[rice]]** today'],
    ['bold', 'We gave **[[rice]]** today', 'We gave [[rice]] today'],
    ['bold', 'Hello [[]]', 'Hello **[[bold text]]**'],
    ['italic', 'a [[word]]', 'a *[[word]]*'],
    ['italic', 'a *[[word]]*', 'a [[word]]'],
    ['italic', 'a **[[word]]**', 'a ***[[word]]***'],
    ['heading', 'Intro\nOur [[work]]\nMore', 'Intro\n## Our work[[]]\nMore'],
    ['heading', '## Our [[work]]', 'Our work[[]]'],
    ['list', '[[rice\nbeans]]', '- rice\n- beans[[]]'],
    ['list', '- rice\n[[beans]]', '- rice\n- beans[[]]'],
    ['list', '[[- rice\n- beans]]', 'rice\nbeans[[]]'],
    ['quote', 'He said [[thanks]]', '> He said thanks[[]]'],
    ['link', 'Visit [[our shop]] now', 'Visit [our shop]([[https://]]) now'],
    ['link', 'See [[https://example.org]]', 'See [[[link text]]](https://example.org)'],
    ['link', '[[]]', '[link text]([[https://]])'],
  ])('%s on %j gives %j', (action, before, after) => {
    expect(press(action, before)).toBe(after)
  })
})
