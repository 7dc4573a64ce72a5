import { Outlet } from 'react-router'
import type { Route } from './+types/layout'
import { ErrorContent } from '~/components/error-page'
import { SiteShell } from '~/components/site-shell'

export default function PublicLayout() {
  return (
    <SiteShell>
      <Outlet />
    </SiteShell>
  )
}

/**
 * Errors of public pages stop here rather than at the root, so the root loader (site settings)
 * still runs when an action fails and the error page keeps the organisation's name and footer.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <SiteShell>
      <ErrorContent error={error} />
    </SiteShell>
  )
}
