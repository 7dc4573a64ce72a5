/**
 * Draws the default social-preview image (public/social-preview.jpg, 1200x630) shown when a
 * page is shared on WhatsApp or Facebook. Plain artwork without words, so it suits any
 * organisation. Re-run after changing the artwork: `npx tsx scripts/generate-social-image.ts`.
 */
import path from 'node:path'
import sharp from 'sharp'
import { SOCIAL_IMAGE } from '../app/platform/seo'

const { width, height } = SOCIAL_IMAGE
const cx = width / 2
const cy = height / 2 + 10

// Twelve people (a head and shoulders each) gathered in a circle around a heart.
const people = Array.from({ length: 12 }, (_, i) => {
  const angle = (i / 12) * Math.PI * 2 - Math.PI / 2
  const x = cx + Math.cos(angle) * 215
  const y = cy + Math.sin(angle) * 215
  return `<g transform="translate(${x.toFixed(1)} ${y.toFixed(1)})">
      <circle cx="0" cy="-15" r="12" />
      <path d="M-22 20 C-22 2 -11 -1 0 -1 C11 -1 22 2 22 20 Z" />
    </g>`
}).join('\n')

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#2e1065" />
      <stop offset="0.7" stop-color="#6d28d9" />
      <stop offset="1" stop-color="#7c3aed" />
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.22" />
      <stop offset="1" stop-color="#ffffff" stop-opacity="0" />
    </radialGradient>
    <linearGradient id="heart" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#fde68a" />
      <stop offset="1" stop-color="#f59e0b" />
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#sky)" />
  <circle cx="${cx}" cy="${cy}" r="330" fill="url(#glow)" />
  <circle cx="120" cy="90" r="180" fill="#ffffff" fill-opacity="0.05" />
  <circle cx="1090" cy="560" r="220" fill="#ffffff" fill-opacity="0.05" />
  <g fill="#ffffff" fill-opacity="0.9">${people}</g>
  <path transform="translate(${cx} ${cy - 10})" fill="url(#heart)"
    d="M0 110 C-70 62 -120 24 -120 -30 C-120 -70 -90 -98 -55 -98 C-28 -98 -10 -82 0 -62 C10 -82 28 -98 55 -98 C90 -98 120 -70 120 -30 C120 24 70 62 0 110 Z" />
</svg>`

const output = path.resolve(import.meta.dirname, '..', 'public', SOCIAL_IMAGE.path.slice(1))
const info = await sharp(Buffer.from(svg)).jpeg({ quality: 82, mozjpeg: true }).toFile(output)
console.log(`Wrote ${output} (${info.width}x${info.height}, ${Math.round(info.size / 1024)} KB)`)
