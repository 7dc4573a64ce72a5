import MarkdownIt from 'markdown-it'

/**
 * The site's Markdown: paragraphs, emphasis, lists, headings and links. Raw HTML is shown as
 * text, images are not embedded, and only http(s), mailto and the site's own pages (`/contact`)
 * become links. The server renders articles with it and the admin's editor previews with it,
 * so the preview shows what the public page will.
 */
export const markdown = new MarkdownIt({ html: false, linkify: true, typographer: true })
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
