import { Link } from 'react-router'
import type { SiteSettings } from '~/modules/settings/settings.schema'

const QUICK_LINKS = [
  { to: '/about', label: 'About Us' },
  { to: '/support', label: 'Support Our Mission' },
  { to: '/news', label: 'Latest News' },
  { to: '/photos', label: 'Photo Gallery' },
] as const

function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, '')}`
}

export function SiteFooter({ settings, year }: { settings: SiteSettings; year: string }) {
  const { organisationName, footerText, tagline, phone, email, facebookUrl, instagramUrl, location } = settings
  return (
    <footer className="site-footer on-dark">
      <div className="container footer-grid">
        <div>
          <h2>{organisationName}</h2>
          {footerText || tagline ? <p>{footerText || tagline}</p> : null}
          {location ? <p>{location}</p> : null}
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links">Quick Links</h2>
          <ul className="footer-list">
            {QUICK_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2>Contact Us</h2>
          <ul className="footer-list">
            {phone ? (
              <li>
                Phone: <a href={telHref(phone)}>{phone}</a>
              </li>
            ) : null}
            {email ? (
              <li>
                E-mail: <a href={`mailto:${email}`}>{email}</a>
              </li>
            ) : null}
            {facebookUrl ? (
              <li>
                <a href={facebookUrl} rel="noopener noreferrer" target="_blank">
                  Facebook<span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ) : null}
            {instagramUrl ? (
              <li>
                <a href={instagramUrl} rel="noopener noreferrer" target="_blank">
                  Instagram<span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ) : null}
          </ul>
        </div>
      </div>
      <div className="container footer-bottom">
        <p>
          © {year} {organisationName}. All rights reserved.
        </p>
      </div>
    </footer>
  )
}
