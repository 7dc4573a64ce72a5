import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { pastedHtmlToMarkdown } from './pasted-html-to-markdown'

/** What Chromium puts on the clipboard as text/html when copying from each program. */
function pasted(name: string): string {
  return fs.readFileSync(path.resolve('tests/fixtures/pasted-html', `${name}.html`), 'utf8')
}

describe('text pasted with formatting becomes Markdown', () => {
  it("keeps Word's heading, bold, italic, both lists and link, without its styles, empty paragraphs or picture", () => {
    expect(pastedHtmlToMarkdown(pasted('word'))).toBe(
      [
        '# Harvest Festival',
        '',
        'Thank you to everyone who came on **Saturday**. We collected *more food than ever*, and the children sang.',
        '',
        'What we need now:',
        '',
        '- Rice and beans',
        '- Winter coats',
        '',
        '1. Bring them to the hall',
        '2. Write your name on the list',
        '',
        'Questions? [Write to us](https://hope.example.org/contact).',
      ].join('\n'),
    )
  })

  it("reads Google Docs' bold and italic spans, drops its wrapper and the pasted data: picture", () => {
    expect(pastedHtmlToMarkdown(pasted('google-docs'))).toBe(
      [
        '## Clinic opening hours',
        '',
        'The clinic is open **every Tuesday** from 9 to 12, and *by appointment* on Thursdays.',
        '',
        '- Blood pressure checks',
        '- Eye tests',
        '',
        'Book at the [front desk](https://hope.example.org/contact).',
      ].join('\n'),
    )
  })

  it("keeps a web page's text and safe links, never its scripts, styles or javascript: links", () => {
    const markdown = pastedHtmlToMarkdown(pasted('web-page'))
    expect(markdown).toBe(
      [
        '### Volunteers wanted',
        '',
        'We are looking for **drivers** and *cooks*. Sign up here or [read more](https://example.org/volunteer).',
        '',
        '> Every meal matters.',
      ].join('\n'),
    )
  })

  it('writes no non-breaking spaces, empty emphasis or runs of blank lines', () => {
    const markdown = pastedHtmlToMarkdown(
      '<p>one&nbsp;two<span></span><b> </b></p><p>&nbsp;</p><p>&nbsp;</p><p><span style="font-weight:700"></span>three</p>',
    )
    expect(markdown).toBe('one two\n\nthree')
  })

  it('escapes characters that would otherwise become Markdown', () => {
    expect(pastedHtmlToMarkdown('<p>1. Not a list, *not* emphasis</p>')).toBe('1\\. Not a list, \\*not\\* emphasis')
  })
})
