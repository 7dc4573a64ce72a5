/**
 * The address of the page a request is for. The browser's router loads a page's data from
 * `<page>.data` (the home page's from `/_root.data`) with a `_routes` parameter of its own: such a
 * request names the page without them, so that a redirect from its loader leads to a page.
 */
export function pageAddressOf(request: Request): URL {
  const url = new URL(request.url)
  url.pathname = url.pathname.replace(/\.data$/, '').replace(/^\/_root$/, '/') || '/'
  url.searchParams.delete('_routes')
  return url
}
