import { data, redirect, Link } from 'react-router'
import type { Route } from './+types/preview'
import { resolvePreviewLink } from '~/modules/previews/preview-links.server'
import { PREVIEW_LINK_DAYS } from '~/modules/previews/previews'
import { PREVIEW_HEADERS } from '~/modules/previews/preview-page.server'

// A shared preview link: leads to the item's own page, opened as a preview.

export const meta: Route.MetaFunction = () => [{ title: 'Preview link ended' }, { name: 'robots', content: 'noindex' }]

export const headers: Route.HeadersFunction = () => PREVIEW_HEADERS

export async function loader({ params }: Route.LoaderArgs) {
  const link = await resolvePreviewLink(params.token)
  if (link.status === 'preview')
    throw redirect(`${link.path}?preview=${encodeURIComponent(params.token)}`, { headers: PREVIEW_HEADERS })
  // Published meanwhile: the public page is what the link was for.
  if (link.status === 'public') throw redirect(link.path, { headers: PREVIEW_HEADERS })
  return data(null, { status: 410 })
}

export default function PreviewEnded() {
  return (
    <div className="container section error-page">
      <h1>This preview link has ended</h1>
      <p>
        A preview link works for {PREVIEW_LINK_DAYS} days, and ends when what it shows is published or deleted. Ask whoever sent
        it for a new one.
      </p>
      <p className="button-row">
        <Link to="/" className="button">
          Go to the home page
        </Link>
      </p>
    </div>
  )
}
