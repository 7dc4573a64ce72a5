import { markdown, renderMarkdown } from '~/platform/markdown'
import { toDescription } from '~/platform/seo'

/** Article text is the site's Markdown (platform/markdown.ts); with `origin`, links to the site's own pages are absolute. */
export const renderArticleHtml = renderMarkdown

/** The words of the text without Markdown syntax, for excerpts and read times. */
export function articlePlainText(content: string): string {
  const words: string[] = []
  for (const block of markdown.parse(content, {})) {
    if (block.type !== 'inline') continue
    for (const token of block.children ?? []) {
      if (token.type === 'text' || token.type === 'code_inline') words.push(token.content)
      else if (token.type === 'softbreak' || token.type === 'hardbreak') words.push(' ')
    }
    words.push(' ')
  }
  return words.join('').replace(/\s+/g, ' ').trim()
}

const WORDS_PER_MINUTE = 200

export function readMinutes(plainText: string): number {
  const words = plainText.split(' ').filter(Boolean).length
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE))
}

export function articleExcerpt(plainText: string): string {
  return toDescription(plainText, 180)
}
