import { createRequire } from 'node:module'
import path from 'node:path'
import { Writable } from 'node:stream'
import { TextEncoder } from 'node:util'
import { createElement, Suspense, use, type ReactElement } from 'react'
import * as developmentBuild from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'

// patches/react-dom+19.3.1.patch: React's server renderer encoded each small piece of a page (a
// tag's name, an attribute, a word) on its own with TextEncoder.encodeInto; the pieces are now
// joined into a string and written once per 2,048 characters or more.

// The tests run React's development build; the server runs its production build, patched alike.
const require = createRequire(import.meta.url)
const productionBuild = require(
  path.join(path.dirname(require.resolve('react-dom/package.json')), 'cjs/react-dom-server.node.production.js'),
) as typeof developmentBuild
const builds = { development: developmentBuild, production: productionBuild }

/**
 * A destination that collects what it is given, as the site's server does (app/entry.server.tsx),
 * and hands it all to `finished`; `accept` decides when each part is taken.
 */
function collectingSink(
  finished: (bytes: Buffer) => void,
  { highWaterMark, accept = (done) => done() }: { highWaterMark?: number; accept?: (done: () => void) => void } = {},
): Writable {
  const chunks: Buffer[] = []
  const sink = new Writable({
    highWaterMark,
    write(chunk: Uint8Array, _encoding, done) {
      chunks.push(Buffer.from(chunk))
      accept(done)
    },
  })
  sink.on('finish', () => finished(Buffer.concat(chunks)))
  return sink
}

/** The page's bytes, written once the whole page is ready. */
function renderedBytes({ renderToPipeableStream }: typeof developmentBuild, element: ReactElement): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      onAllReady: () => pipe(collectingSink(resolve)),
      onShellError: reject,
    })
  })
}

/** A list long enough to fill React's 4 KB buffers many times over, with `words` in each item. */
function list(words: (index: number) => string): ReactElement {
  const items = Array.from({ length: 1500 }, (_, index) =>
    createElement('li', { key: index, className: `item-${index % 7}`, title: words(index) }, words(index), ' ', index),
  )
  return createElement('ul', { lang: 'en' }, items)
}

/**
 * A page whose middle part arrives after its shell was sent (a Suspense boundary), written as it
 * comes into a destination that takes `delay` to accept each part and asks React to wait
 * (backpressure) after 64 bytes.
 */
function streamedWithALatePart(build: typeof developmentBuild, delay: (done: () => void) => void): Promise<string> {
  let arrive!: (text: string) => void
  const late = new Promise<string>((resolve) => (arrive = resolve))
  // It makes no element while rendering: the production build runs here with React's development build.
  const LatePart = () => use(late)
  const page = createElement(
    'main',
    null,
    list((index) => `Before ${index}`),
    createElement(
      Suspense,
      { fallback: createElement('p', null, 'Loading…') },
      createElement('p', { className: 'late' }, createElement(LatePart)),
    ),
    list((index) => `After ${index}`),
  )
  return new Promise((resolve, reject) => {
    const sink = collectingSink((bytes) => resolve(bytes.toString('utf8')), { highWaterMark: 64, accept: delay })
    const { pipe } = build.renderToPipeableStream(page, {
      onShellReady() {
        pipe(sink)
        setTimeout(() => arrive('Arrived later: Crème brûlée 🌴'), 10)
      },
      onShellError: reject,
    })
  })
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

  it('streams a part that arrives later, into a destination that makes it wait, as into one that does not', async () => {
    const waited = await streamedWithALatePart(build, (done) => setTimeout(done, 1))
    const atOnce = await streamedWithALatePart(build, (done) => done())
    expect(waited).toBe(atOnce)
    const at = (text: string) => waited.indexOf(text)
    expect(at('>Before 1499<')).toBeGreaterThan(at('>Before 0<'))
    expect(at('Loading…')).toBeGreaterThan(at('>Before 1499<'))
    expect(at('>After 0<')).toBeGreaterThan(at('Loading…'))
    // The late part follows the page, hidden, with React's script that moves it into place.
    expect(at('>Arrived later: Crème brûlée 🌴</div>')).toBeGreaterThan(at('>After 1499<'))
    expect(waited).toMatch(/\$RC\("B:0","S:0"\)<\/script>$/)
  })
})
