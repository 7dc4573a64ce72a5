import { useLocation, Link } from 'react-router'
import type { FrameSettings } from '~/modules/settings/settings.schema'
import type { Shared } from '~/platform/shared'
import { PhoneAndEmail } from './contact-links'
import { NewTabLink } from './new-tab-link'
import { NewsletterSignup } from './newsletter-signup'
import { PUBLIC_NAV } from './site-nav'

/**
 * Pages that have a sign-up form of their own (home, news, calendar) or another e-mail form (sign-in,
 * contact...): the footer leaves its sign-up out there, so a page never asks for an e-mail twice.
 */
const OWN_EMAIL_FORM = /^\/(news|calendar)?$|^\/(login|forgot-password|reset-password|join|contact|subscribe)(\/|$)/

const QUICK_LINKS = PUBLIC_NAV.flatMap(({ to, footerLabel }) => (footerLabel ? [{ to, label: footerLabel }] : []))

export function SiteFooter({ settings, year }: { settings: Shared<FrameSettings>; year: string }) {
  return (
    <footer className="site-footer on-dark">
      <SiteFooterInside {...settings} year={year} />
    </footer>
  )
}

type FooterSettings = Pick<
  FrameSettings,
  'organisationName' | 'footerText' | 'tagline' | 'phone' | 'email' | 'facebookUrl' | 'instagramUrl' | 'location'
>

function SiteFooterInside({
  organisationName,
  footerText,
  tagline,
  phone,
  email,
  facebookUrl,
  instagramUrl,
  location,
  year,
}: FooterSettings & { year: string }) {
  const { pathname } = useLocation()
  return (
    <>
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
            <PhoneAndEmail phone={phone} email={email} line="li" />
            {facebookUrl ? (
              <li>
                <NewTabLink href={facebookUrl}>Facebook</NewTabLink>
              </li>
            ) : null}
            {instagramUrl ? (
              <li>
                <NewTabLink href={instagramUrl}>Instagram</NewTabLink>
              </li>
            ) : null}
          </ul>
        </div>
        {OWN_EMAIL_FORM.test(pathname) ? null : (
          <NewsletterSignup idPrefix="footer-signup" heading="E-mail updates" className="footer-signup" />
        )}
      </div>
      <div className="container footer-bottom">
        <p>
          © {year} {organisationName}. All rights reserved. <Link to="/privacy">Privacy</Link>
        </p>
      </div>
    </>
  )
}
