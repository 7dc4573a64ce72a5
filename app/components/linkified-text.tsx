import { find } from 'linkifyjs'

export type TextPart = { text: string }
export type LinkPart = { text: string; href: string }

const WEB_ADDRESS = /^https?:\/\//i

/**
 * The text cut into plain runs and web addresses, in order, so that joining every part's text
 * gives the text back. Only http(s) addresses become links (a bare 'www.example.org' gets
 * https://); e-mail addresses, other schemes, and addresses with a user name or password (which
 * can pass evil.com off as 'https://facebook.com@evil.com') stay plain text.
 */
export function linkParts(text: string): Array<TextPart | LinkPart> {
  const parts: Array<TextPart | LinkPart> = []
  let position = 0
  for (const found of find(text, 'url', { defaultProtocol: 'https' })) {
    const href = webAddress(found.href)
    if (!href) continue // left where it is, inside the next plain run
    if (found.start > position) parts.push({ text: text.slice(position, found.start) })
    parts.push({ text: found.value, href })
    position = found.end
  }
  if (position < text.length) parts.push({ text: text.slice(position) })
  return parts
}

/** The href to link to, with the scheme lower-cased, or null when it must stay text. */
function webAddress(href: string): string | null {
  if (!WEB_ADDRESS.test(href) || !URL.canParse(href)) return null
  const { username, password } = new URL(href)
  if (username || password) return null
  return href.replace(WEB_ADDRESS, (scheme) => scheme.toLowerCase())
}

// Parts of texts whose owner never changes, cut once: gone with their owner.
const cutOnce = new WeakMap<object, Array<TextPart | LinkPart>>()

/**
 * Text written by an administrator (a product description) with its web addresses as links
 * that open in a new tab. Built from React elements, so nothing in the text can become markup.
 * `owner`: an object whose text never changes (a kept product, the same object for every visitor
 * until the content changes), so that the text is cut into links once, not on every page.
 */
export function LinkifiedText({ text, owner }: { text: string; owner?: object }) {
  let parts = owner && cutOnce.get(owner)
  if (!parts) {
    parts = linkParts(text)
    if (owner) cutOnce.set(owner, parts)
  }
  return (
    <>
      {parts.map((part, index) =>
        'href' in part ? (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {part.text}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  )
}
