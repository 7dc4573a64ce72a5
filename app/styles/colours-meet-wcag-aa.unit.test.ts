import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/*
 * The colour pairs of the design (docs/design.md), measured from site.css itself: WCAG 2.x
 * contrast of text on its background. axe checks rendered pages, but cannot judge white text on
 * a photograph; this test takes the worst case, a pure white part of the photo under the veil.
 */

const css = fs.readFileSync(path.resolve('app/styles/site.css'), 'utf8')

type Rgb = [number, number, number]

function token(name: string): string {
  const match = css.match(new RegExp(`${name}:\\s*([^;]+);`))
  if (!match) throw new Error(`${name} is not declared in site.css`)
  return match[1].replace(/\/\*.*\*\//, '').trim()
}

function hex(value: string): Rgb {
  const m = value.match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i)
  if (!m) throw new Error(`not a #rrggbb colour: ${value}`)
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)]
}

function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}

const WHITE: Rgb = [255, 255, 255]

describe('colours of site.css', () => {
  it('white text over a hero photograph stays at 4.5:1 even where the photo is white', () => {
    const veil = token('--hero-veil').match(/^rgb\((\d+) (\d+) (\d+) \/ ([\d.]+)\)$/)
    expect(veil, '--hero-veil is rgb(r g b / alpha)').not.toBeNull()
    const [r, g, b, alpha] = veil!.slice(1).map(Number)
    // The veil composited over the lightest possible pixel of the photograph.
    const worst = [r, g, b].map((c) => Math.round(alpha * c + (1 - alpha) * 255)) as Rgb
    expect(contrast(WHITE, worst)).toBeGreaterThanOrEqual(4.5)
  })

  it.each([
    ['white on the main button', WHITE, '--color-brand'],
    ['white on a hovered button', WHITE, '--color-brand-strong'],
    ['the hero button: deep purple on white', '--color-brand-deep', WHITE],
    ['secondary button: strong purple on white', '--color-brand-strong', WHITE],
    ['white on a danger button', WHITE, '--color-danger'],
    ['body text on the page background', '--color-text', '--color-background'],
    ['muted text on a section tint', '--color-muted', '--color-brand-soft'],
    ['links on white', '--color-brand', WHITE],
    ['white on the footer', WHITE, '--color-brand-deep'],
  ] as const)('%s meets 4.5:1', (_name, text, background) => {
    const colour = (c: Rgb | string) => (typeof c === 'string' ? hex(token(c)) : c)
    expect(contrast(colour(text as Rgb | string), colour(background as Rgb | string))).toBeGreaterThanOrEqual(4.5)
  })
})
