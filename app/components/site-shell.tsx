import { BodyTooLargeNotice } from './body-too-large-notice'
import { isOverlayPath, SiteHeader } from './site-header'
import { SiteFooter } from './site-footer'
import { useRootData } from './root-data'
import { useLocation } from 'react-router'

/** The public site's frame: skip link, navigation, main area and footer, all from the site settings. */
export function SiteShell({ children }: { children: React.ReactNode }) {
  const { settings, year } = useRootData()
  const { pathname } = useLocation()
  return (
    <div className={isOverlayPath(pathname) ? 'site-shell site-shell-overlay' : 'site-shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader organisationName={settings.organisationName} />
      <main id="main" className="site-main" tabIndex={-1}>
        <BodyTooLargeNotice className="container" />
        {children}
      </main>
      <SiteFooter settings={settings} year={year} />
    </div>
  )
}
