import { stemmer } from 'stemmer'
import { MARK_END, MARK_START } from './search-words'

/**
 * How far into a text a passage is looked for. The engines' own highlighters read each whole
 * text, for every word, while the visitor waits (SQLite's `snippet()` took 25 s for twenty long
 * articles); here a text of 50,000 characters costs what one of 20,000 costs.
 */
export const PASSAGE_SCAN_MAX = 20_000
const PASSAGE_WORDS = 30
const WORDS_BEFORE = 8

const WORD = /[\p{L}\p{N}]+/gu

/** A word as the indexes compare it: lower case, without accents. */
function folded(word: string): string {
  const lower = word.toLowerCase()
  return /^[\x00-\x7f]*$/.test(lower) ? lower : lower.normalize('NFD').replace(/\p{M}/gu, '')
}

/**
 * Whether a word of a text is one of the visitor's words in some form ("kites" for "kite",
 * "baked" for "baking"): both indexes stem English words (Porter's rules, as SQLite's tokenizer).
 * Porter's rules never change a word's first two letters: most words are ruled out by those.
 */
function matcherFor(words: string[]): (word: string) => boolean {
  const stems = new Set(words.map((word) => stemmer(folded(word))))
  const starts = new Set([...stems].map((stem) => stem.slice(0, 2)))
  return (word) => {
    const form = folded(word)
    return starts.has(form.slice(0, 2)) && stems.has(stemmer(form))
  }
}

interface Found {
  index: number
  end: number
  marked: boolean
}

/** The words of `text` in order, with their places, marked when they are the visitor's. */
function* wordsOf(text: string, matches: (word: string) => boolean): Generator<Found> {
  for (const found of text.matchAll(WORD)) {
    yield { index: found.index, end: found.index + found[0].length, marked: matches(found[0]) }
  }
}

function withMarks(text: string, from: number, to: number, words: Found[]): string {
  let out = ''
  let at = from
  for (const word of words) {
    if (!word.marked) continue
    out += text.slice(at, word.index) + MARK_START + text.slice(word.index, word.end) + MARK_END
    at = word.end
  }
  return out + text.slice(at, to)
}

/** A short text (a title) with every form of the visitor's words marked. */
export function markedWhole(text: string, words: string[]): string {
  return withMarks(text, 0, text.length, [...wordsOf(text, matcherFor(words))])
}

/**
 * About thirty words of `text` around the first of the visitor's words, marked, with "…" where
 * the text goes on; the text's first words when none of them is in its first PASSAGE_SCAN_MAX
 * characters (the title or a later part matched).
 */
export function passage(text: string, words: string[]): string {
  const scanned = text.slice(0, PASSAGE_SCAN_MAX)
  const first: Found[] = []
  const recent: Found[] = []
  const window: Found[] = []
  for (const word of wordsOf(scanned, matcherFor(words))) {
    if (window.length === 0 && !word.marked) {
      if (first.length < PASSAGE_WORDS) first.push(word)
      recent.push(word)
      if (recent.length > WORDS_BEFORE) recent.shift()
      continue
    }
    if (window.length === 0) window.push(...recent)
    window.push(word)
    if (window.length >= PASSAGE_WORDS) break
  }
  const shown = window.length > 0 ? window : first
  if (shown.length === 0) return ''
  const from = shown[0] === first[0] ? 0 : shown[0].index
  const to = shown[shown.length - 1].end
  // The sentence's full stop belongs to it.
  const end = /^[.!?…]/.test(text.slice(to, to + 1)) ? to + 1 : to
  return (from > 0 ? '… ' : '') + withMarks(text, from, end, shown) + (text.slice(end).trim() ? ' …' : '')
}
