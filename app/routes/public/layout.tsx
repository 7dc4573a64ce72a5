import { Outlet } from 'react-router'
import { SiteShell } from '~/components/site-shell'

export default function PublicLayout() {
  return (
    <SiteShell>
      <Outlet />
    </SiteShell>
  )
}
