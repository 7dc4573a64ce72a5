/**
 * What a visitor typed, as words: letters and digits only, so that quotes, `NEAR`, `*`, `:` and
 * `-` are never read as the search engine's own syntax. Bounded: a long text or many words cost
 * what a short question costs.
 */
export const SEARCH_TEXT_MAX = 100
export const SEARCH_WORDS_MAX = 8

export function searchWords(text: string | null): string[] {
  const words =
    (text ?? '')
      .slice(0, SEARCH_TEXT_MAX)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words)].slice(0, SEARCH_WORDS_MAX)
}

/** The engines mark found words with these private-use characters; the page turns them into <mark>. */
export const MARK_START = '\uE000'
export const MARK_END = '\uE001'

export interface TextPart {
  text: string
  marked: boolean
}

/** A highlighted text as plain parts, each shown as text (escaped), the found words inside <mark>. */
export function markedParts(highlighted: string): TextPart[] {
  const parts: TextPart[] = []
  for (const [index, piece] of highlighted.split(MARK_START).entries()) {
    const [inside, after] = index === 0 ? [null, piece] : splitOnce(piece, MARK_END)
    if (inside) parts.push({ text: inside, marked: true })
    if (after) parts.push({ text: after, marked: false })
  }
  return parts
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator)
  return at === -1 ? [text, ''] : [text.slice(0, at), text.slice(at + separator.length)]
}
