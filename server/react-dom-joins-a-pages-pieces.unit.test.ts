import { createRequire } from 'node:module'
import path from 'node:path'
import { Writable } from 'node:stream'
import { TextEncoder } from 'node:util'
import { createElement, type ReactElement } from 'react'
import * as developmentBuild from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'

// patches/react-dom+19.3.1.patch: React's server renderer encoded each small piece of a page (a
// tag's name, an attribute, a word) on its own with TextEncoder.encodeInto; the pieces are now
// joined into a string and encoded once per 2,048 characters or more.

// The tests run React's development build; the server runs its production build, patched alike.
const require = createRequire(import.meta.url)
const productionBuild = require(
  path.join(path.dirname(require.resolve('react-dom/package.json')), 'cjs/react-dom-server.node.production.js'),
) as typeof developmentBuild
const builds = { development: developmentBuild, production: productionBuild }

/** The page's bytes as the site's server collects them (app/entry.server.tsx). */
function renderedBytes({ renderToPipeableStream }: typeof developmentBuild, element: ReactElement): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const sink = new Writable({
      write(chunk: Uint8Array, _encoding, done) {
        chunks.push(Buffer.from(chunk))
        done()
      },
    })
    sink.on('finish', () => resolve(Buffer.concat(chunks)))
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(sink), onShellError: reject })
  })
}

/** A list long enough to fill React's 4 KB buffers many times over, with `words` in each item. */
function list(words: (index: number) => string): ReactElement {
  const items = Array.from({ length: 1500 }, (_, index) =>
    createElement('li', { key: index, className: `item-${index % 7}`, title: words(index) }, words(index), ' ', index),
  )
  return createElement('ul', { lang: 'en' }, items)
}

describe.each(Object.entries(builds))("React's server renderer (%s build) with its pieces joined", (_, build) => {
  afterEach(() => vi.restoreAllMocks())

  it('writes every character as the string render does, across buffer ends and with characters of 2 to 4 bytes', async () => {
    const samples = ['Keisha', 'Crème brûlée', '“Quoted” text', 'Palm 🌴 tree', 'a'.repeat(64), 'b'.repeat(65), 'é']
    const element = list((index) => samples[index % samples.length].slice(0, 1 + (index % 70)))
    const bytes = await renderedBytes(build, element)
    expect(bytes.toString('utf8')).toBe(developmentBuild.renderToString(element))
    expect(bytes.includes(Buffer.from('Palm 🌴 tree'))).toBe(true)
  })

  it('encodes the page in a few large parts, not piece by piece', async () => {
    const encodeInto = vi.spyOn(TextEncoder.prototype, 'encodeInto')
    const bytes = await renderedBytes(
      build,
      list((index) => `Product ${index}`),
    )
    const last = '<li class="item-1" title="Product 1499">Product 1499<!-- --> <!-- -->1499</li></ul>'
    expect(bytes.toString('utf8').endsWith(last)).toBe(true)
    // The page has 14,000 pieces: React called encodeInto for 10,500 of them.
    expect(encodeInto.mock.calls.length).toBeLessThanOrEqual(Math.ceil(bytes.byteLength / 2048))
  })
})
