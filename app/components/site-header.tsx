import { useEffect, useState } from 'react'
import { useLocation, NavLink } from 'react-router'
import { MenuDisclosure } from './menu-disclosure'
import { useShipsScripts } from './page-scripts'
import { SearchForm } from './search-form'
import { PUBLIC_NAV } from './site-nav'

/** Pages that open with a hero: the bar is transparent over it until the page scrolls. */
const OVERLAY_PATHS = new Set(['/', '/about', '/services', '/support'])
const SCROLL_THRESHOLD_PX = 20

export function isOverlayPath(pathname: string): boolean {
  return OVERLAY_PATHS.has(pathname.replace(/\/+$/, '') || '/')
}

/** Whether the page has scrolled past `threshold`; undefined until the page's scripts run. */
function useScrolledPast(threshold: number): boolean | undefined {
  const [scrolled, setScrolled] = useState<boolean>()
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold)
    update()
    window.addEventListener('scroll', update, { passive: true })
    return () => window.removeEventListener('scroll', update)
  }, [threshold])
  return scrolled
}

function NavLinks() {
  return (
    <ul className="nav-list">
      {PUBLIC_NAV.map((link) => (
        <li key={link.to}>
          <NavLink to={link.to} end={link.to === '/'} className="nav-link">
            {link.label}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}

/**
 * A plain GET form, so it works before and without JavaScript. On small screens only its button
 * shows: it opens /search, whose own box takes the words.
 */
function HeaderSearch() {
  return (
    <SearchForm
      action="/search"
      id="header-search-q"
      label="Search the site"
      placeholder="Search"
      landmark="Site"
      className="header-search"
      inputClassName="header-search-input"
      buttonClassName="header-search-button"
      buttonLabel="Search the site"
      button={
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.5" />
          <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
        </svg>
      }
    />
  )
}

/**
 * The navigation bar: transparent over the hero of the overlay pages, solid purple elsewhere,
 * white with a shadow once the page has scrolled. On small screens the links sit in a
 * <details> menu, which works without JavaScript and closes when a link is chosen, on a tap
 * outside it and on Escape. Without JavaScript, or on a page sent without its scripts, the bar
 * never learns that the page scrolled, so site.css keeps it solid then instead of transparent
 * over the text.
 */
export function SiteHeader({ organisationName }: { organisationName: string }) {
  const { pathname } = useLocation()
  const scrolled = useScrolledPast(SCROLL_THRESHOLD_PX)
  const look = scrolled ? 'scrolled' : isOverlayPath(pathname) ? 'transparent' : 'solid'
  const withoutScripts = !useShipsScripts()
  // Until its scripts run, site.css turns the bar solid on scrolling, without them.
  const state = withoutScripts ? ' site-header-without-scripts' : scrolled === undefined ? ' site-header-before-scripts' : ''
  return (
    <header className={`site-header site-header-${look}${state}`} data-nav-look={look}>
      <SiteHeaderInside organisationName={organisationName} />
    </header>
  )
}

function SiteHeaderInside({ organisationName }: { organisationName: string }) {
  return (
    <div className="container site-header-inner">
      <NavLink to="/" className="site-brand">
        {organisationName}
      </NavLink>
      <div className="site-header-tools">
        <nav aria-label="Main">
          <div className="nav-wide">
            <NavLinks />
          </div>
          <MenuDisclosure
            className="nav-menu"
            summary={
              <>
                <span className="nav-menu-icon" aria-hidden="true" />
                Menu
              </>
            }
          >
            <NavLinks />
          </MenuDisclosure>
        </nav>
        <HeaderSearch />
      </div>
    </div>
  )
}
