import MarkdownIt from 'markdown-it'
import { toDescription } from '~/platform/seo'

/**
 * Article text is Markdown: paragraphs, emphasis, lists, headings and links. Raw HTML is shown as
 * text, images are not embedded, and only http(s), mailto and the site's own pages (`/contact`)
 * become links.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: true })
markdown.disable(['image', 'table'])

const EXTERNAL_LINK = /^(https?:\/\/|mailto:)/i
// One slash, not two: `//evil.example` leads off the site. (A backslash, which browsers read as a
// slash, arrives here already percent-encoded by markdown-it: `/%5Cevil.example` is a path.)
const SAME_SITE_PATH = /^\/(?!\/)/
markdown.validateLink = (url) => EXTERNAL_LINK.test(url.trim()) || SAME_SITE_PATH.test(url.trim())

interface RenderEnv {
  origin?: string
}

markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const { origin } = (env ?? {}) as RenderEnv
  const href = String(tokens[idx].attrGet('href') ?? '')
  if (!SAME_SITE_PATH.test(href)) tokens[idx].attrSet('rel', 'nofollow noopener')
  else if (origin) tokens[idx].attrSet('href', origin + href)
  return self.renderToken(tokens, idx, options)
}

// The page title is the h1, so the text's own headings start at h2 ('#' and '##' both give h2).
function shiftHeading(tag: string): string {
  return `h${Math.max(Number(tag.slice(1)), 2)}`
}
markdown.renderer.rules.heading_open = (tokens, idx, options, _env, self) => {
  tokens[idx].tag = shiftHeading(tokens[idx].tag)
  return self.renderToken(tokens, idx, options)
}
markdown.renderer.rules.heading_close = markdown.renderer.rules.heading_open

/**
 * The text as HTML. With `origin`, links to the site's own pages are absolute: for copies read
 * away from the site (the feed), where `/support` would lead nowhere or to the reader's own host.
 */
export function renderArticleHtml(content: string, { origin }: RenderEnv = {}): string {
  return markdown.render(content, { origin })
}

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
