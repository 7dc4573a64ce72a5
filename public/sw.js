// Keeps the public pages a visitor has read, and their pictures at the size seen, for reading
// offline (docs/decisions/032-light-pages-for-prepaid-data.md). Pages and pictures always come
// from the network first (pictures through the browser's cache, which keeps them an hour), so they
// are refreshed whenever the visitor is online, and a withdrawn picture is gone (decision 050).
// Version 2: version 1 kept pictures for good, those of the team's drafts too.
const VERSION = 2
const PAGES = `pages-v${VERSION}`
const PICTURES = `pictures-v${VERSION}`
const MAX_PAGES = 40
const MAX_PICTURES = 200
const OFFLINE = '/offline'
// Signed-in pages carry `private`; forms and accounts are no use offline.
const NEVER = /^\/(admin|api|account|login|logout|forgot-password|reset-password|join|contact|offline)(\/|$)/

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(PAGES)
      // As an anonymous visitor sees it, whoever starts the worker.
      .then((cache) => fetch(OFFLINE, { credentials: 'omit' }).then((response) => cache.put(OFFLINE, response)))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((name) => name !== PAGES && name !== PICTURES).map((name) => caches.delete(name))),
      )
      .then(() => self.clients.claim())
      .then(keepOpenPages),
  )
})

/**
 * The pages open when the worker starts were read before it could keep them: they are taken from
 * the browser's own cache when it still has them, so they are not downloaded twice.
 */
async function keepOpenPages() {
  for (const client of await self.clients.matchAll({ type: 'window' })) {
    const url = new URL(client.url)
    if (url.origin !== self.location.origin || NEVER.test(url.pathname)) continue
    const response = await fetch(url, { cache: 'force-cache' }).catch(() => null)
    if (response && isKeepable(response)) await keep(PAGES, url.href, response, MAX_PAGES)
  }
}

/** A public page as every visitor gets it: not a signed-in user's, not an error. */
function isKeepable(response) {
  const cacheControl = response.headers.get('cache-control') || ''
  return (
    response.ok &&
    response.type === 'basic' &&
    !response.redirected &&
    !/private|no-store/.test(cacheControl) &&
    (response.headers.get('content-type') || '').startsWith('text/html')
  )
}

/** Keeps `response` under `request`, letting the oldest go beyond `max`. */
async function keep(cacheName, request, response, max) {
  const cache = await caches.open(cacheName)
  await cache.delete(request)
  await cache.put(request, response)
  const keys = await cache.keys()
  for (const old of keys.slice(0, Math.max(0, keys.length - max))) {
    if (new URL(old.url).pathname !== OFFLINE) await cache.delete(old)
  }
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
}

/** The offline page with the list of kept pages, newest first, each by its title. */
async function offlinePage() {
  const cache = await caches.open(PAGES)
  const offline = await cache.match(OFFLINE)
  if (!offline) return Response.error()
  const items = []
  for (const request of (await cache.keys()).reverse()) {
    const url = new URL(request.url)
    if (url.pathname === OFFLINE) continue
    const html = await (await cache.match(request)).text()
    const title = (html.match(/<title>([^<]*)<\/title>/) || [])[1] || url.pathname
    items.push(`<li><a href="${escapeHtml(url.pathname + url.search)}">${title}</a></li>`)
  }
  const page = await offline.text()
  const body = items.length
    ? page.replace(/(<ul id="offline-pages"[^>]*>)[\s\S]*?(<\/ul>)/, (all, open, close) => open + items.join('') + close)
    : page
  const headers = new Headers(offline.headers)
  for (const name of ['content-length', 'content-encoding']) headers.delete(name)
  return new Response(body, { status: 200, headers })
}

async function page(event) {
  const { request } = event
  try {
    const response = await fetch(request)
    if (isKeepable(response)) event.waitUntil(keep(PAGES, request.url, response.clone(), MAX_PAGES))
    return response
  } catch {
    return (await caches.match(request.url, { cacheName: PAGES })) || offlinePage()
  }
}

/** A picture every visitor may see: not one of a draft shown to the team or to a preview. */
function isPublicPicture(response) {
  return response.ok && response.type === 'basic' && !/private|no-store/.test(response.headers.get('cache-control') || '')
}

async function picture(event) {
  const { request } = event
  let response
  try {
    response = await fetch(request)
  } catch {
    return (await caches.match(request, { cacheName: PICTURES })) || Response.error()
  }
  const cache = await caches.open(PICTURES)
  if (isPublicPicture(response)) {
    const kept = await cache.match(request)
    // Written again only when it changed: most views come from the browser's cache.
    if (!kept || kept.headers.get('etag') !== response.headers.get('etag')) {
      event.waitUntil(keep(PICTURES, request, response.clone(), MAX_PICTURES))
    }
  } else if (response.ok || response.status === 404) {
    // Withdrawn, or shown only to whoever is signed in: not kept for anyone.
    event.waitUntil(cache.delete(request))
  }
  return response
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  const url = new URL(request.url)
  if (request.method !== 'GET' || url.origin !== self.location.origin || NEVER.test(url.pathname)) return
  if (request.mode === 'navigate') event.respondWith(page(event))
  else if (url.pathname.startsWith('/media/images/')) event.respondWith(picture(event))
})
