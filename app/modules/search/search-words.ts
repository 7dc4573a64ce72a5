/**
 * What a visitor typed, as words: letters and digits only, so that quotes, `NEAR`, `*`, `:` and
 * `-` are never read as the search engine's own syntax. Bounded: a long text or many words cost
 * what a short question costs.
 */
export const SEARCH_TEXT_MAX = 100
export const SEARCH_WORDS_MAX = 8

/**
 * PostgreSQL's English stop words (its `english.stop`): words in nearly every text, which find
 * everything and rank nothing. PostgreSQL leaves them out of a query; SQLite is given the same
 * words, so both find the same, and a question of common words costs nothing.
 */
const STOP_WORDS = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
    her hers herself it its itself they them their theirs themselves what which who whom this that
    these those am is are was were be been being have has had having do does did doing a an the and
    but if or because as until while of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once here
    there when where why how all any both each few more most other some such no nor not only own
    same so than too very s t can will just don should now`.split(/\s+/),
)

export function searchWords(text: string | null): string[] {
  const words =
    (text ?? '')
      .slice(0, SEARCH_TEXT_MAX)
      .toLowerCase()
      // "children's" is the word "children", as PostgreSQL reads it, not "children" and "s".
      .replace(/['’]s(?![\p{L}\p{N}])/gu, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words)].filter((word) => !STOP_WORDS.has(word)).slice(0, SEARCH_WORDS_MAX)
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
