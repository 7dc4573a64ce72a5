import { markdownToPlainText, renderMarkdown } from '~/platform/markdown'
import { toDescription } from '~/platform/seo'

/** Article text is the site's Markdown (platform/markdown.ts); with `origin`, links to the site's own pages are absolute. */
export const renderArticleHtml = renderMarkdown

/** The words of the text without Markdown syntax, on one line, for excerpts and read times. */
export function articlePlainText(content: string): string {
  return markdownToPlainText(content, { oneLine: true })
}

const WORDS_PER_MINUTE = 200

export function readMinutes(plainText: string): number {
  const words = plainText.split(' ').filter(Boolean).length
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE))
}

export function articleExcerpt(plainText: string): string {
  return toDescription(plainText, 180)
}
