import { AdminBar } from './admin-bar'
import { BodyTooLargeNotice } from './body-too-large-notice'
import { isOverlayPath, SiteHeader } from './site-header'
import { SiteFooter } from './site-footer'
import { useRootData } from './root-data'
import { useLocation } from 'react-router'

/** The public site's frame: skip link, the admin bar of a signed-in user, navigation, main area and footer, all from the site settings. */
export function SiteShell({ children }: { children: React.ReactNode }) {
  const { settings, year, user } = useRootData()
  const { pathname } = useLocation()
  const classes = ['site-shell', isOverlayPath(pathname) && 'site-shell-overlay', user && 'site-shell-with-admin-bar']
  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AdminBar />
      <SiteHeader organisationName={settings.organisationName} />
      <main id="main" className="site-main" tabIndex={-1}>
        <BodyTooLargeNotice className="container" />
        {children}
      </main>
      <SiteFooter settings={settings} year={year} />
    </div>
  )
}
