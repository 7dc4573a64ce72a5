import { createElement as h } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, it } from 'vitest'
import { KeepMarkupContext, type RouterContexts } from './kept-markup'
import { keepMarkup } from './kept-markup.server'
import { SiteShell } from './site-shell'

/** A page in the site's frame at `path`, rendered as the server renders it, with or without kept pieces. */
function page(path: string, keep: boolean): string {
  const Stub = createRoutesStub([{ path: '*', Component: () => h(SiteShell, null, h('p', null, 'The page itself')) }])
  const tree = h(Stub, { initialEntries: [path] })
  return renderToString(keep ? h(KeepMarkupContext, { value: keepMarkup }, tree) : tree)
}

it('sends the navigation and footer byte for byte as rendered in place, so the browser hydrates them as usual', () => {
  for (const path of ['/', '/about', '/news/a-story', '/contact', '/calendar/a-meeting', '/no-such-page']) {
    const inPlace = page(path, false)
    expect(page(path, true)).toBe(inPlace)
    // The second time from what was kept.
    expect(page(path, true)).toBe(inPlace)
  }
})

it('keeps each address apart: the current page is marked in the navigation, the footer leaves out a second e-mail form', () => {
  page('/about', true)
  const article = page('/news/a-story', true)
  expect(article).toMatch(/<a aria-current="page" class="nav-link" href="\/news"/)
  expect(article).not.toMatch(/aria-current="page"[^>]*href="\/about"/)
  expect(article).toContain('footer-signup')
  expect(page('/contact', true)).not.toContain('footer-signup')
})

it('keeps 256 pieces at most, pushing out the one asked for least recently', () => {
  let renders = 0
  function Counted() {
    renders++
    return h('span', null, 'counted')
  }
  const contexts = {} as RouterContexts
  const ask = (key: string) => keepMarkup(key, h(Counted), contexts)
  for (let index = 0; index < 256; index++) ask(`piece ${index}`)
  expect(renders).toBe(256)
  ask('piece 0')
  expect(renders).toBe(256)
  ask('piece 256')
  expect(renders).toBe(257)
  // 'piece 1' was the least recently asked for: it went, 'piece 0' stayed.
  ask('piece 0')
  expect(renders).toBe(257)
  ask('piece 1')
  expect(renders).toBe(258)
})
