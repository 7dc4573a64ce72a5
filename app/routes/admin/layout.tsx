import { Form, isRouteErrorResponse, Outlet, useRouteLoaderData, Link, NavLink } from 'react-router'
import type { ReactNode } from 'react'
import type { Route } from './+types/layout'
import { BodyTooLargeNotice } from '~/components/body-too-large-notice'
import { MenuDisclosure } from '~/components/menu-disclosure'
import { countUnreadContactMessages } from '~/modules/inbox/inbox.queries.server'
import { ADMIN_SECTIONS, canManage, homeFor, sectionsFor } from '~/platform/access'
import { requireUser } from '~/platform/auth.server'
import adminStylesUrl from '~/styles/admin.css?url'
import { CACHE_PROFILES } from '~/platform/http-caching'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminStylesUrl }]

/**
 * Nobody without a session gets past this point, and no admin answer is cached or indexed.
 * Each admin loader and action still checks access to its own section (see access.ts).
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    await requireUser({ request, context })
    const response = await next()
    response.headers.set('Cache-Control', CACHE_PROFILES.momentary)
    response.headers.set('X-Robots-Tag', 'noindex, nofollow')
    return response
  },
]

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context })
  const unreadMessages = canManage(user, 'messages') ? await countUnreadContactMessages() : 0
  return {
    user: { name: user.name, email: user.email },
    home: homeFor(user),
    nav: sectionsFor(user).map(({ path, label, counter }) => ({
      to: path,
      label,
      count: counter === 'unreadMessages' ? unreadMessages : 0,
    })),
  }
}

function NoIndex() {
  // React places it in <head>; child routes' own meta replaces this layout's, so it is not left to `meta`.
  return <meta name="robots" content="noindex, nofollow" />
}

type NavItem = Route.ComponentProps['loaderData']['nav'][number]

/** The sections' links; the menu ends with the guide and the way back to the public site, which the wide header shows beside the sign-out button. */
function AdminNavLinks({ items, withSiteLink }: { items: NavItem[]; withSiteLink: boolean }) {
  return (
    <ul className="admin-nav">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.to === '/admin'} className="admin-nav-link">
            {item.label}
            {item.count > 0 ? (
              <>
                {' '}
                <span className="admin-badge">
                  {item.count}
                  <span className="visually-hidden"> unread</span>
                </span>
              </>
            ) : null}
          </NavLink>
        </li>
      ))}
      {withSiteLink ? (
        <>
          <li>
            <Link to={ADMIN_SECTIONS.guide.path} className="admin-nav-link">
              {ADMIN_SECTIONS.guide.label}
            </Link>
          </li>
          <li>
            <Link to="/" className="admin-nav-link">
              View site
            </Link>
          </li>
        </>
      ) : null}
    </ul>
  )
}

/**
 * The sections in one row on wide screens; on narrower ones a menu (MenuDisclosure). Only one of
 * the two lists is displayed at a time, so assistive technology meets the links once.
 */
function AdminNav({ items }: { items: NavItem[] }) {
  const unread = items.reduce((sum, item) => sum + item.count, 0)

  return (
    <nav aria-label="Admin" className="admin-nav-area">
      <div className="admin-nav-wide">
        <AdminNavLinks items={items} withSiteLink={false} />
      </div>
      <MenuDisclosure
        className="admin-menu"
        summary={
          <>
            <span className="nav-menu-icon" aria-hidden="true" />
            Menu
            {unread > 0 ? (
              <span className="admin-badge">
                {unread}
                <span className="visually-hidden"> unread</span>
              </span>
            ) : null}
          </>
        }
      >
        <AdminNavLinks items={items} withSiteLink />
      </MenuDisclosure>
    </nav>
  )
}

type AdminLayoutData = Route.ComponentProps['loaderData']

/** The admin header and main area: around every admin page, and around its error when the user is known. */
function AdminShell({ data, children }: { data: AdminLayoutData; children: ReactNode }) {
  return (
    <div className="admin-shell">
      <NoIndex />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="admin-header on-dark">
        <div className="container admin-header-inner">
          <Link to={data.home} className="admin-brand">
            Site admin
          </Link>
          <AdminNav items={data.nav} />
          <Form method="post" action="/logout" className="admin-signout">
            <Link to={ADMIN_SECTIONS.guide.path} className="admin-view-site">
              {ADMIN_SECTIONS.guide.label}
            </Link>
            <Link to="/" className="admin-view-site">
              View site
            </Link>
            <span className="admin-user">{data.user.name}</span>
            <button type="submit" className="button-secondary button-small">
              Sign out
            </button>
          </Form>
        </div>
      </header>
      <main id="main" className="container admin-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  )
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell data={loaderData}>
      <BodyTooLargeNotice />
      <Outlet />
    </AdminShell>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // Present when the page below failed, not the session: the user keeps their header and a way on.
  const data = useRouteLoaderData<typeof loader>('routes/admin/layout')
  const refused = isRouteErrorResponse(error)
  const status = refused ? error.status : 500
  const [title, text] =
    status === 403
      ? ['Access denied', 'Your account does not have permission to open this page.']
      : status === 404
        ? ['Page not found', 'This admin page does not exist, or what it showed has been removed.']
        : ['Something went wrong', 'The page could not be shown. Please try again.']
  const content = (
    <div className="error-page">
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="button-row">
        {data ? (
          <Link to={data.home} className="button">
            Go to your admin pages
          </Link>
        ) : null}
        <Link to="/" className="button-secondary">
          Back to the site
        </Link>
      </div>
    </div>
  )
  // A refusal or a missing page below: the shell is sound. A fault may lie in the shell itself.
  if (data && refused) return <AdminShell data={data}>{content}</AdminShell>
  return (
    <main id="main" className="container admin-main">
      <NoIndex />
      {content}
    </main>
  )
}
