/**
 * The public site's navigation, read by the header (every item) and the footer's quick links (the
 * items with a `footerLabel`). It lists only features that exist: a feature adds its item here
 * when it lands. Still to come, in the header's order:
 * /photos 'Photos' (footer 'Photo Gallery') after News, /marketplace 'Marketplace' after Photos.
 */
export interface PublicNavItem {
  to: string
  label: string
  /** Shown among the footer's quick links, under this name. */
  footerLabel?: string
}

export const PUBLIC_NAV: readonly PublicNavItem[] = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About Us', footerLabel: 'About Us' },
  { to: '/support', label: 'Support', footerLabel: 'Support Our Mission' },
  { to: '/calendar', label: 'Calendar', footerLabel: 'Calendar' },
  { to: '/news', label: 'News', footerLabel: 'Latest News' },
  { to: '/contact', label: 'Contact' },
]
