import { describe, expect, it } from 'vitest'
import { markedParts, searchWords, SEARCH_WORDS_MAX } from './search-words'

describe('what a visitor types', () => {
  it('is read as words only: quotes, operators and symbols are dropped', () => {
    expect(searchWords('"kite" NEAR(hill) fest* title:x -rain')).toEqual(['kite', 'near', 'hill', 'fest', 'title', 'x', 'rain'])
    expect(searchWords('Crème   brûlée')).toEqual(['crème', 'brûlée'])
    expect(searchWords('*** :: --')).toEqual([])
    expect(searchWords(null)).toEqual([])
  })

  it('is bounded: a long text gives a few words', () => {
    expect(searchWords('a b c d e f g h i j k l')).toHaveLength(SEARCH_WORDS_MAX)
    expect(searchWords('kite '.repeat(1000))).toEqual(['kite'])
    expect(searchWords('x'.repeat(10_000))[0]).toHaveLength(100)
  })
})

describe('a highlighted text', () => {
  it('becomes plain parts, the found words marked', () => {
    expect(markedParts('Bring a \uE000kite\uE001 <b>now</b>')).toEqual([
      { text: 'Bring a ', marked: false },
      { text: 'kite', marked: true },
      { text: ' <b>now</b>', marked: false },
    ])
    expect(markedParts('\uE000Kite\uE001')).toEqual([{ text: 'Kite', marked: true }])
  })
})
