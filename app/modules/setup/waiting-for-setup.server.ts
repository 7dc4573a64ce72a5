import type { MiddlewareFunction } from 'react-router'
import { escapeMarkup } from '~/platform/escape-markup'
import { isWaitingForSetup } from './setup.server'
import { SETUP_MESSAGES } from './setup.schema'
import { CACHE_PROFILES } from '~/platform/http-caching'

const OPEN_WHILE_WAITING = [/^\/setup\/[^/]+$/, /^\/healthz$/]

const WAITING_PAGE = [
  '<!doctype html><html lang="en"><head><meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="robots" content="noindex"><title>Being set up</title></head>',
  `<body><main><h1>Being set up</h1><p>${escapeMarkup(SETUP_MESSAGES.waiting)}</p></main></body></html>`,
].join('')

/** Until its owner has set the site up, every page but the setup page and the health check says so. */
export const waitForSetup: MiddlewareFunction<Response> = async ({ request }, next) => {
  const { pathname } = new URL(request.url)
  if (OPEN_WHILE_WAITING.some((path) => path.test(pathname)) || !(await isWaitingForSetup())) return next()
  return new Response(WAITING_PAGE, {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE_PROFILES.momentary, 'Retry-After': '60' },
  })
}
