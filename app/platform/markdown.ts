import MarkdownIt, { type Token } from 'markdown-it'

/**
 * The site's Markdown, for article texts and the descriptions of events, gallery items and
 * products: paragraphs, emphasis, lists, headings and links. Raw HTML is shown as text, images
 * are not embedded, and only http(s), mailto and the site's own pages (`/contact`) become links.
 * A single line break stays a line break (`breaks`), as the descriptions always showed them.
 * The server renders with it and the admin's editor previews with it, so the preview shows what
 * the public page will.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: true, breaks: true })
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
export function renderMarkdown(content: string, { origin }: RenderEnv = {}): string {
  return markdown.render(content, { origin })
}

/**
 * The volunteers' guide (docs/guide), written with the project, not by visitors: the same rules,
 * with its tables and its own screenshots, each found by its file name in `images`.
 */
const guideMarkdown = new MarkdownIt({ html: false, linkify: true, typographer: true })
// Its screenshots are named by their file alone (`dashboard-360.webp`).
guideMarkdown.validateLink = (url) => markdown.validateLink(url) || /^[\w-]+\.webp$/.test(url)
guideMarkdown.renderer.rules.link_open = markdown.renderer.rules.link_open
guideMarkdown.renderer.rules.heading_open = markdown.renderer.rules.heading_open
guideMarkdown.renderer.rules.heading_close = markdown.renderer.rules.heading_close
guideMarkdown.renderer.rules.image = (tokens, idx, _options, env) => {
  const { images } = env as { images: Record<string, string> }
  const token = tokens[idx]
  const src = images[String(token.attrGet('src'))]
  if (!src) return ''
  const alt = guideMarkdown.utils.escapeHtml(token.content)
  return `<img src="${guideMarkdown.utils.escapeHtml(src)}" alt="${alt}" width="360" loading="lazy">`
}

/** The guide's text as HTML; `images` maps each screenshot's file name to its address. */
export function renderGuideMarkdown(content: string, images: Record<string, string>): string {
  return guideMarkdown.render(content, { images })
}

const BLOCK_END: Record<string, string> = { paragraph_close: '\n\n', heading_close: '\n\n', blockquote_close: '\n\n' }

interface PlainTextOptions {
  /** The words alone, on one line (an article's excerpt and read time). */
  oneLine?: boolean
  /** Each link's address after its words, `words (https://…)`, the site's own pages made absolute at this origin. */
  linksFrom?: string
}

/**
 * The words of the text without Markdown syntax, for excerpts, social tags, calendar files and
 * the API: paragraphs apart by a blank line, line breaks kept, list items as `- item`.
 */
export function markdownToPlainText(content: string, { oneLine = false, linksFrom }: PlainTextOptions = {}): string {
  const parts: string[] = []
  for (const token of markdown.parse(content, {})) {
    if (token.type === 'list_item_open' && !oneLine)
      parts.push(token.markup === '.' || token.markup === ')' ? `${token.info}. ` : '- ')
    else if (token.type === 'paragraph_close' && token.hidden) parts.push('\n')
    else if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') parts.push('\n')
    else if (token.type === 'fence' || token.type === 'code_block') parts.push(token.content, '\n')
    else if (token.type in BLOCK_END) parts.push(BLOCK_END[token.type])
    else if (token.type === 'inline') parts.push(inlineText(token.children ?? [], linksFrom))
  }
  const text = parts.join('')
  if (oneLine) return text.replace(/\s+/g, ' ').trim()
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

function inlineText(tokens: Token[], linksFrom: string | undefined): string {
  let text = ''
  let link: { href: string; wordsFrom: number } | null = null
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'image') text += token.content
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += '\n'
    else if (token.type === 'link_open') link = { href: String(token.attrGet('href') ?? ''), wordsFrom: text.length }
    else if (token.type === 'link_close' && link) {
      const href = SAME_SITE_PATH.test(link.href) && linksFrom ? linksFrom + link.href : link.href
      // A bare address is its own words; `mailto:` is left out of an address shown as words.
      const words = text.slice(link.wordsFrom)
      if (linksFrom !== undefined && words !== href && words !== href.replace(/^mailto:/i, '')) text += ` (${href})`
      link = null
    }
  }
  return text
}
