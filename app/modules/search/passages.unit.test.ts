import { describe, expect, it } from 'vitest'
import { markedParts } from './search-words'
import { markedWhole, passage, PASSAGE_SCAN_MAX } from './passages'

const marks = (text: string) =>
  markedParts(text)
    .filter((part) => part.marked)
    .map((part) => part.text)

describe('a passage of a found text', () => {
  it('is the words around the first found word, every form of the words marked', () => {
    const text = `${'Opening words of the article. '.repeat(10)}We baked bread; the baking went on while kites flew. ${'More words follow here. '.repeat(10)}`
    const found = passage(text, ['baking', 'kite'])
    expect(found.startsWith('… ')).toBe(true)
    expect(found.endsWith(' …')).toBe(true)
    expect(marks(found)).toEqual(['baked', 'baking', 'kites'])
    expect(found.split(/\s+/).length).toBeLessThan(40)
  })

  it('finds words without their accents and marks them as written', () => {
    expect(marks(passage('The volunteers made crème brûlée.', ['creme', 'brulee']))).toEqual(['crème', 'brûlée'])
    expect(marks(markedWhole('Crème Brûlée Morning', ['creme']))).toEqual(['Crème'])
  })

  it('is the opening words, unmarked, when the words are further than it looks', () => {
    const text = `Short opening. ${'filler '.repeat(PASSAGE_SCAN_MAX / 7)} treasure`
    const found = passage(text, ['treasure'])
    expect(found.startsWith('Short opening. filler')).toBe(true)
    expect(marks(found)).toEqual([])
  })

  it('is the whole text when it is short', () => {
    expect(passage('A walk of penguins.', ['penguin'])).toBe('A walk of \uE000penguins\uE001.')
    expect(passage('', ['penguin'])).toBe('')
  })
})
