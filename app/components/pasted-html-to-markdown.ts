import TurndownService from 'turndown'

/*
 * What a volunteer pastes from Word, Google Docs or a web page, as the site's Markdown: the
 * formatting Markdown has (headings, bold, italic, lists, links, quotes) is kept, everything else
 * (fonts, colours, Word's and Google Docs' own markup, pictures) is dropped.
 */

function styleOf(node: HTMLElement): string {
  return (node.getAttribute('style') ?? '').toLowerCase().replace(/\s+/g, '')
}

const BOLD_WEIGHT = /font-weight:(bold|[6-9]00)/
const ITALIC = /font-style:italic/

// Only what the site's renderer turns into links; anything else (javascript:, data:, file:) keeps its text.
const LINKABLE = /^(https?:\/\/|mailto:|\/(?!\/))/i

/** Word's list paragraphs (`<p class=MsoListParagraph… style='mso-list:l0 level1 lfo1'>`), and the bullet it writes into them. */
function wordListItem(node: HTMLElement): { marker: string; level: number; first: boolean; last: boolean } | null {
  if (node.nodeName !== 'P') return null
  const list = styleOf(node).match(/mso-list:l\d+level(\d+)/)
  const kind = (node.getAttribute('class') ?? '').match(/^MsoListParagraph(CxSp(First|Middle|Last))?$/i)
  if (!list && !kind) return null
  const bullet = Array.from(node.getElementsByTagName('span')).find((span) => isWordListBullet(span))
  const number = bullet?.textContent?.trim().match(/^(\d+)[.)]/)
  // Word marks a list's first and last paragraph in the class (a single item has neither).
  const place = kind?.[2]?.toLowerCase()
  return {
    marker: number ? `${number[1]}.` : '-',
    level: Number(list?.[1] ?? 1),
    first: place === undefined || place === 'first',
    last: place === undefined || place === 'last',
  }
}

function isWordListBullet(node: HTMLElement): boolean {
  return /mso-list:ignore/.test(styleOf(node))
}

function createConverter(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
    strongDelimiter: '**',
  })
  turndown.remove(['script', 'style', 'meta', 'link', 'title', 'head', 'iframe', 'object'])
  turndown.remove((node) => node.nodeName.toLowerCase() === 'svg')
  // Later rules win: the most specific ones come last.
  // Pictures are not part of the text (the article's image field uploads them); pasted ones are often data: URLs.
  turndown.addRule('picture', { filter: ['img', 'picture'], replacement: () => '' })
  turndown.addRule('wordListBullet', { filter: isWordListBullet, replacement: () => '' })
  turndown.addRule('wordListParagraph', {
    filter: (node) => wordListItem(node) !== null,
    replacement: (content, node) => {
      const { marker, level, first, last } = wordListItem(node)!
      const item = `${'  '.repeat(level - 1)}${marker} ${content.trim()}`
      return `${first ? '\n\n' : '\n'}${item}${last ? '\n\n' : '\n'}`
    },
  })
  // One space after the marker (turndown writes three): what a volunteer would type.
  turndown.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as HTMLElement
      const index = Array.prototype.indexOf.call(parent.children, node)
      const start = Number(parent.getAttribute('start') ?? 1) || 1
      const prefix = parent.nodeName === 'OL' ? `${start + index}. ` : '- '
      const text = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/g, `\n${' '.repeat(prefix.length)}`)
      return prefix + text.trimEnd() + (node.nextSibling ? '\n' : '')
    },
  })
  turndown.addRule('unsafeLink', {
    filter: (node) => node.nodeName === 'A' && !LINKABLE.test((node.getAttribute('href') ?? '').trim()),
    replacement: (content) => content,
  })
  // Google Docs writes bold and italic as styled spans, and wraps the whole paste in <b style="font-weight:normal">.
  turndown.addRule('styledEmphasis', {
    filter: (node) => (node.nodeName === 'SPAN' || node.nodeName === 'B') && /font-(weight|style):/.test(styleOf(node)),
    replacement: (content, node) => {
      if (!content.trim()) return content
      const style = styleOf(node)
      const marks = (BOLD_WEIGHT.test(style) ? '**' : '') + (ITALIC.test(style) ? '*' : '')
      return marks + content + [...marks].reverse().join('')
    },
  })
  return turndown
}

let converter: TurndownService | undefined

/** The Markdown for pasted HTML; tidy: no non-breaking spaces, no trailing spaces, at most one blank line in a row. */
export function pastedHtmlToMarkdown(html: string): string {
  converter ??= createConverter()
  return converter
    .turndown(html)
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
