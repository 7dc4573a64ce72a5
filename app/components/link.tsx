import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react'
import { useLocation, useNavigate } from 'react-router'

/**
 * The site's links. React Router's `Link` resolves its path against the route matches three
 * times per link (a `JSON.stringify` of them each time) and `NavLink` once more: on a page of 60
 * links that was a fifth of what the server allocated for it (docs/performance.md). Here the
 * address is `to`, as written (the site's links are absolute paths), and a plain click goes
 * where the browser resolves it, inside the app, with the same options as React Router's `Link`.
 */
export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path on this site, e.g. `/news?page=2`. */
  to: string
  replace?: boolean
  state?: unknown
  preventScrollReset?: boolean
  /** A full page load instead of a navigation inside the app (e.g. after signing in). */
  reloadDocument?: boolean
  ref?: Ref<HTMLAnchorElement>
}

/** A click the browser should handle itself: another button, a modifier key, another window. */
function opensElsewhere(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.button !== 0 ||
    event.metaKey ||
    event.altKey ||
    event.ctrlKey ||
    event.shiftKey ||
    (target !== undefined && target !== '_self') ||
    event.currentTarget.hasAttribute('download')
  )
}

export function Link({ to, replace, state, preventScrollReset, reloadDocument, onClick, target, ...rest }: LinkProps) {
  const navigate = useNavigate()
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event)
    if (event.defaultPrevented || reloadDocument || opensElsewhere(event, target)) return
    const { origin, pathname, search, hash } = new URL(event.currentTarget.href)
    // Another site, or mailto: and tel: links, are the browser's to open.
    if (origin !== window.location.origin) return
    event.preventDefault()
    const path = pathname + search + hash
    // As React Router does: a link to the page one is on replaces it in the history.
    const here = window.location.pathname + window.location.search + window.location.hash
    void navigate(path, { replace: replace ?? path === here, state, preventScrollReset })
  }
  // data-discover: React Router's client fetches the route modules of the links it finds on the page.
  return <a {...rest} href={to} target={target} onClick={handleClick} data-discover="true" />
}

/** A link marked `aria-current="page"` while its page, or (unless `end`) a page under it, is shown. */
export function NavLink({ end = false, ...props }: LinkProps & { end?: boolean }) {
  const { pathname } = useLocation()
  const page = props.to.split(/[?#]/)[0].replace(/(.)\/$/, '$1')
  // Compared without case, as React Router's NavLink does.
  const [here, target] = [pathname.toLowerCase(), page.toLowerCase()]
  const current = here === target || (!end && target !== '/' && here.startsWith(`${target}/`))
  return <Link aria-current={current ? 'page' : undefined} {...props} />
}
