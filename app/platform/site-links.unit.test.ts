import { describe, expect, it } from 'vitest'
import { siteLinksRelative } from './site-links'

const origin = 'https://hope.example.org'

describe("links to the site's own pages", () => {
  it.each([
    ['[our news](https://hope.example.org/news/x)', '[our news](/news/x)'],
    ['[home](https://hope.example.org)', '[home](/)'],
    ['[home](https://hope.example.org/)', '[home](/)'],
    ['[give](HTTPS://Hope.Example.org/support?from=news#give)', '[give](/support?from=news#give)'],
    ['[search](https://hope.example.org?q=rice)', '[search](/?q=rice)'],
    ['[titled](https://hope.example.org/contact "Write to us")', '[titled](/contact "Write to us")'],
    ['[angle](<https://hope.example.org/a b>)', '[angle](</a b>)'],
    ['[ref]: https://hope.example.org/about', '[ref]: /about'],
  ])('store %s as a path', (typed, stored) => {
    expect(siteLinksRelative(typed, origin)).toBe(stored)
  })

  it.each([
    ['another site', '[x](https://hope.example.org.evil.example/news)'],
    ['another port', '[x](https://hope.example.org:8443/news)'],
    ['another scheme', '[x](http://hope.example.org/news)'],
    ['a bare address, which is also its visible text', 'See https://hope.example.org/news/x'],
    ['a path that would read as another host', '[x](https://hope.example.org//evil.example)'],
    ['an address in the link text', '[https://hope.example.org/news](/news)'],
  ])('leave %s as typed', (_name, typed) => {
    expect(siteLinksRelative(typed, origin)).toBe(typed)
  })
})
