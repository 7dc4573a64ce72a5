/**
 * The public site's navigation, read by the header (every item) and the footer's quick links (the
 * items with a `footerLabel`). It lists only features that exist: a feature adds its item here
 * when it lands.
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
  { to: '/photos', label: 'Photos', footerLabel: 'Photo Gallery' },
  { to: '/marketplace', label: 'Marketplace' },
  { to: '/contact', label: 'Contact' },
]
