import { describe, expect, it } from 'vitest'
import { markdownToPlainText, renderMarkdown } from './markdown'

describe('Markdown as plain text', () => {
  const text =
    '## Hours\n\nOpen **every Tuesday**,\nby *appointment* on Thursdays.\n\n- checks\n- tests\n\n1. one\n2. two\n\n> Book at the [front desk](/contact).'

  it('keeps the words, the paragraphs and the line breaks, and lists as lines', () => {
    expect(markdownToPlainText(text)).toBe(
      'Hours\n\nOpen every Tuesday,\nby appointment on Thursdays.\n\n- checks\n- tests\n\n1. one\n2. two\n\nBook at the front desk.',
    )
  })

  it("puts a link's absolute address after its words when asked, not after a bare address", () => {
    expect(
      markdownToPlainText('See [us](/contact), https://example.org/x and [mail](mailto:a@example.org).', {
        linksFrom: 'https://hope.example',
      }),
    ).toBe('See us (https://hope.example/contact), https://example.org/x and mail (mailto:a@example.org).')
  })

  it('gives the words alone on one line for an excerpt', () => {
    expect(markdownToPlainText(text, { oneLine: true })).toBe(
      'Hours Open every Tuesday, by appointment on Thursdays. checks tests one two Book at the front desk.',
    )
  })

  it('reads an old plain description as it was written: single line breaks stay line breaks', () => {
    expect(renderMarkdown('Doors open at 9.\nBring a bag.\n\nAll welcome.')).toBe(
      '<p>Doors open at 9.<br>\nBring a bag.</p>\n<p>All welcome.</p>\n',
    )
  })
})
