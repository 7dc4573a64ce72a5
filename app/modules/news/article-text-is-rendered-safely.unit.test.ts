import { describe, expect, it } from 'vitest'
import { articleExcerpt, articlePlainText, readMinutes, renderArticleHtml } from './article-text.server'

describe('article text', () => {
  it('renders paragraphs, lists, headings below the page title, and safe links', () => {
    const html = renderArticleHtml(
      '# Distribution day\n\n### What we gave\n\nWe gave out **food** and clothes.\n\n- rice\n- beans\n\n[Donate](https://example.org/give) or [write](mailto:info@example.org)',
    )
    expect(html).toContain('<h2>Distribution day</h2>')
    expect(html).toContain('<h3>What we gave</h3>')
    expect(html).toContain('<strong>food</strong>')
    expect(html).toContain('<ul>\n<li>rice</li>')
    expect(html).toContain('<a href="https://example.org/give" rel="nofollow noopener">Donate</a>')
    expect(html).toContain('<a href="mailto:info@example.org" rel="nofollow noopener">write</a>')
  })

  it('shows markup as text and never makes a script, a handler or a javascript: link', () => {
    const html = renderArticleHtml(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) ![pic](https://example.org/a.png) [away](//evil.example/contact) [rel](contact)',
    )
    expect(html).not.toMatch(/<script|<img|onerror="/i)
    // The picture becomes a plain link to it; nothing else becomes a link.
    expect([...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])).toEqual(['https://example.org/a.png'])
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('[click](javascript:alert(3))')
  })

  it("links to the site's own pages, without nofollow, and never off the site", () => {
    const html = renderArticleHtml(
      'Write to us on the [contact page](/contact) or see [our support](/support?from=news#give).\n\n' +
        '[one](//evil.example) [two](/\\evil.example) [three](JavaScript:alert(1)) [four](data:text/html,x)',
    )
    expect(html).toContain('<a href="/contact">contact page</a>')
    expect(html).toContain('<a href="/support?from=news#give">our support</a>')
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])
    // A backslash after the slash is encoded, so the browser stays on this site's path.
    expect(hrefs).toEqual(['/contact', '/support?from=news#give', '/%5Cevil.example'])
    expect(html).toContain('[one](//evil.example)')
    expect(html).toContain('[three](JavaScript:alert(1))')
  })

  it("makes the site's own links absolute when given the site's origin, for copies read elsewhere", () => {
    const html = renderArticleHtml(
      'See [our support](/support?from=feed#give), ![the poster](/media/images/poster.jpg), [two](/\\evil.example), ' +
        '[away](https://example.com/x) and https://example.com/y.',
      { origin: 'https://hope.example' },
    )
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])
    expect(hrefs).toEqual([
      'https://hope.example/support?from=feed#give',
      'https://hope.example/media/images/poster.jpg',
      'https://hope.example/%5Cevil.example',
      'https://example.com/x',
      'https://example.com/y',
    ])
    expect(html).toContain('<a href="https://hope.example/support?from=feed#give">our support</a>')
  })

  it('turns bare web addresses into links', () => {
    expect(renderArticleHtml('See https://example.org/news')).toContain(
      '<a href="https://example.org/news" rel="nofollow noopener">https://example.org/news</a>',
    )
  })

  it('takes the excerpt and the read time from the words, not the Markdown', () => {
    const text = articlePlainText('## Hello\n\nA [link](https://example.org) and *emphasis*.\n\n- one\n- two')
    expect(text).toBe('Hello A link and emphasis. one two')
    expect(articleExcerpt('word '.repeat(100).trim())).toMatch(/^(word ){30,}.*…$/)
    expect(readMinutes('')).toBe(1)
    expect(readMinutes('word '.repeat(200).trim())).toBe(1)
    expect(readMinutes('word '.repeat(201).trim())).toBe(2)
    expect(readMinutes('word '.repeat(1000).trim())).toBe(5)
  })
})
