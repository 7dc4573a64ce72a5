import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { LinkifiedText, linkParts } from './linkified-text'

const render = (text: string) => renderToStaticMarkup(createElement(LinkifiedText, { text }))
const joined = (text: string) =>
  linkParts(text)
    .map((part) => part.text)
    .join('')
const hrefs = (text: string) => linkParts(text).flatMap((part) => ('href' in part ? [part.href] : []))

describe('linkParts', () => {
  it('cuts the text into plain runs and links, in order', () => {
    expect(linkParts('Order at https://example.org/shop today.')).toEqual([
      { text: 'Order at ' },
      { text: 'https://example.org/shop', href: 'https://example.org/shop' },
      { text: ' today.' },
    ])
  })

  it('gives back the whole text, whitespace included, when the parts are joined', () => {
    const text = '  Line one\n\n\tsee www.example.org and http://a.org/x?y=1&z=2#top  \r\nend  '
    expect(joined(text)).toBe(text)
  })

  it('returns no parts for an empty text and one plain part for text without addresses', () => {
    expect(linkParts('')).toEqual([])
    expect(linkParts('Fresh banana bread, $5 a loaf.')).toEqual([{ text: 'Fresh banana bread, $5 a loaf.' }])
  })

  it('links a bare www. address or domain over https, showing it as typed', () => {
    expect(linkParts('www.example.org')).toEqual([{ text: 'www.example.org', href: 'https://www.example.org' }])
    expect(hrefs('visit example.org/cakes.')).toEqual(['https://example.org/cakes'])
  })

  it('keeps http and https addresses as found, with the scheme in lower case', () => {
    expect(hrefs('http://example.org/a and https://example.org/b')).toEqual(['http://example.org/a', 'https://example.org/b'])
    expect(hrefs('HTTPS://EXAMPLE.ORG/Menu')).toEqual(['https://EXAMPLE.ORG/Menu'])
  })

  it('leaves e-mail addresses and every other scheme as plain text', () => {
    for (const text of [
      'write to maria@example.org',
      'mailto:maria@example.org',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://example.org/file',
      'file:///etc/passwd',
      'tel:+12685550100',
    ]) {
      expect(linkParts(text), text).toEqual([{ text }])
    }
  })

  it('links only the web address linkify finds inside another scheme, never the scheme', () => {
    expect(linkParts('javascript://example.org/%0Aalert(1)')).toEqual([
      { text: 'javascript://' },
      { text: 'example.org/%0Aalert(1)', href: 'https://example.org/%0Aalert(1)' },
    ])
  })

  it('leaves an address with a user name or password as plain text', () => {
    const text = 'Follow us: https://facebook.com@evil.example/page'
    expect(linkParts(text)).toEqual([{ text }])
  })

  it('keeps a refused address inside the surrounding plain text', () => {
    expect(linkParts('a ftp://x.org/f b https://x.org c')).toEqual([
      { text: 'a ftp://x.org/f b ' },
      { text: 'https://x.org', href: 'https://x.org' },
      { text: ' c' },
    ])
  })

  it('processes a 100 KB description quickly (no catastrophic backtracking)', () => {
    const description = (
      'Handmade soap www.example.org/soap?id=1 and candles https://example.org/candles_(large), ' +
      'ask maria@example.org ((((... '
    ).repeat(900)
    const nested = 'https://example.org/' + '('.repeat(20_000) + ' ' + 'a.'.repeat(20_000)
    expect(description.length).toBeGreaterThan(100_000)
    const started = performance.now()
    const parts = linkParts(description)
    linkParts(nested)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(parts.filter((part) => 'href' in part)).toHaveLength(1800)
    expect(parts.map((part) => part.text).join('')).toBe(description)
  })
})

describe('LinkifiedText', () => {
  it('renders addresses as links that open in a new tab without passing on the page', () => {
    expect(render('Menu: https://example.org/menu')).toBe(
      'Menu: <a href="https://example.org/menu" target="_blank" rel="noopener noreferrer nofollow ugc">' +
        'https://example.org/menu<span class="visually-hidden"> (opens in a new tab)</span></a>',
    )
  })

  it('escapes markup in the text and keeps it out of link attributes', () => {
    const html = render('<b>Sale</b> https://x.org/"><script>alert(1)</script> <img src=x onerror=alert(1)>')
    const [link] = linkParts('https://x.org/"><script>alert(1)</script>')
    expect(link).toMatchObject({ href: 'https://x.org/"><script>alert(1)</script>' })
    expect(html).not.toMatch(/<script|<img|<b>/i)
    expect(html).toContain('href="https://x.org/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
    expect(html).toContain('&lt;b&gt;Sale&lt;/b&gt;')
    expect(html.match(/<a /g)).toHaveLength(1)
  })

  it('keeps whitespace and line breaks as text', () => {
    expect(render('one\n\n  two')).toBe('one\n\n  two')
  })

  it('renders nothing for an empty text', () => {
    expect(render('')).toBe('')
  })

  it("cuts an owner's text once, and another owner's on its own", () => {
    const product = { descriptionText: 'Order at https://example.org/shop' }
    const once = (text: string, owner: object) => renderToStaticMarkup(createElement(LinkifiedText, { text, owner }))
    const first = once(product.descriptionText, product)
    expect(first).toContain('href="https://example.org/shop"')
    // An owner's text never changes: a second render takes the parts cut the first time.
    expect(once('Plain words now', product)).toBe(first)
    expect(once('Plain words now', { descriptionText: 'Plain words now' })).toBe('Plain words now')
  })
})
