import type { Route } from './+types/sitemap.xml'
import { getSiteOrigin } from '~/platform/site-url.server'

/** The public pages search engines should know; each public feature adds its pages (and items) here. */
const PUBLIC_PATHS = ['/', '/about', '/services', '/support', '/impact', '/contact']

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

export function loader({ request, context }: Route.LoaderArgs) {
  const origin = getSiteOrigin(request, context)
  const urls = PUBLIC_PATHS.map((path) => `  <url><loc>${escapeXml(new URL(path, origin).toString())}</loc></url>`)
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n')
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
