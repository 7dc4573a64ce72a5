import { useEffect, useRef } from 'react'
import { data, redirect, useLocation, useNavigate, useOutletContext } from 'react-router'
import type { Route } from './+types/$slug'
import { editHandle } from '~/components/admin-bar'
import type { MediaOutletContext } from './index'
import { MediaItemDetail } from './media-detail'
import { PreviewBanner } from '~/components/preview-banner'
import { pagePreview, PREVIEW_HEADERS, previewPageHeaders } from '~/modules/previews/preview-page.server'
import { previewQueryParam } from '~/modules/previews/previews'
import { getPublishedMediaBySlug } from '~/modules/gallery/gallery.queries.server'
import {
  CATEGORY_REDIRECT_HEADERS,
  isMediaCategory,
  mediaCategoryWrittenOtherwise,
  mediaHref,
  photosHref,
} from '~/modules/gallery/media-categories'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requestInfoContext } from '~/platform/request-context'
import { formatDate } from '~/platform/dates'
import { absoluteUrl, itemPageMeta, NOINDEX } from '~/platform/seo'
import { getSiteOrigin } from '~/platform/site-url.server'
import { declareQueryParams } from '~/platform/query-params'
import { BackLink } from '~/components/back-link'

/** The admin bar's "Edit this page". */
export const handle = editHandle<Route.ComponentProps['loaderData']>(({ item }) => ({
  section: 'gallery',
  path: `/admin/photos/${encodeURIComponent(item.id)}`,
}))

export const queryParams = declareQueryParams('category', previewQueryParam)

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const query = queryParams.read(request)
  // One address per category (the grid's loader does the same for the grid).
  const meant = mediaCategoryWrittenOtherwise(query.category)
  if (meant) {
    const preview = query.preview ? `&${new URLSearchParams({ [previewQueryParam]: query.preview })}` : ''
    throw redirect(mediaHref(params.slug, meant) + preview, {
      status: 301,
      headers: preview ? PREVIEW_HEADERS : CATEGORY_REDIRECT_HEADERS,
    })
  }
  const category = isMediaCategory(query.category) ? query.category : null
  const settings = await siteSettingsFor(context)
  const origin = getSiteOrigin(request, context)
  const preview = await pagePreview(query.preview, 'mediaItems', {
    url: url.href,
    origin,
    timeZone: settings.timeZone,
    secure: context.get(requestInfoContext).secure,
  })
  const item = await getPublishedMediaBySlug(params.slug, category, preview.audience)
  if (!item) throw data(null, { status: 404 })
  return data(
    { item: { ...item, dateLabel: formatDate(item.publishedAt, settings.timeZone, 'date') }, origin, preview: preview.notice },
    { headers: preview.headers },
  )
}

export const headers: Route.HeadersFunction = previewPageHeaders

export const meta: Route.MetaFunction = (args) => {
  const { item, origin } = args.loaderData ?? {}
  if (!item || !origin) return []
  const video = item.video
  return itemPageMeta(args, {
    title: item.title,
    description: item.descriptionText,
    socialImage: item.socialImage,
    dates: { createdAt: item.publishedAt, updatedAt: item.updatedAt },
    extra: [
      ...(args.loaderData.preview ? [NOINDEX] : []),
      ...(video
        ? [
            { property: 'og:video', content: absoluteUrl(origin, video.src) },
            { property: 'og:video:type', content: video.contentType },
            ...(video.width && video.height
              ? [
                  { property: 'og:video:width', content: String(video.width) },
                  { property: 'og:video:height', content: String(video.height) },
                ]
              : []),
          ]
        : []),
    ],
  })
}

/** Arrow keys go to the neighbours, except where they already mean something (fields, a video's controls). */
function isArrowForUs(event: KeyboardEvent): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false
  const target = event.target as HTMLElement | null
  return !target?.closest('input, textarea, select, video, [contenteditable="true"]')
}

const SWIPE_MIN_PX = 60

export default function MediaPage({ loaderData }: Route.ComponentProps) {
  const { item, preview } = loaderData
  // Shown inside the grid's dialog when opened from the grid; on its own page otherwise.
  const { inDialog, category } = useOutletContext<MediaOutletContext>()
  const navigate = useNavigate()
  const location = useLocation()
  const touchStart = useRef<{ x: number; y: number } | null>(null)

  const hrefOf = (slug: string) => mediaHref(slug, category)
  const go = (slug: string | null) => {
    // In the dialog, moving on replaces the entry: closing goes straight back to the grid.
    if (slug) navigate(hrefOf(slug), { replace: inDialog, state: location.state, preventScrollReset: true })
  }

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (!isArrowForUs(event)) return
      if (event.key === 'ArrowLeft' && item.previous) go(item.previous)
      else if (event.key === 'ArrowRight' && item.next) go(item.next)
      else return
      event.preventDefault()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  })

  return (
    <>
      {preview ? <PreviewBanner notice={preview} /> : null}
      <article
        className={inDialog ? 'gallery-detail' : 'container section gallery-detail gallery-detail-page'}
        onTouchStart={(event) => {
          const touch = event.touches[0]
          touchStart.current = event.target instanceof HTMLVideoElement ? null : { x: touch.clientX, y: touch.clientY }
        }}
        onTouchEnd={(event) => {
          const start = touchStart.current
          touchStart.current = null
          const touch = event.changedTouches[0]
          if (!start || !touch) return
          const dx = touch.clientX - start.x
          const dy = touch.clientY - start.y
          if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 2 * Math.abs(dy)) return
          go(dx < 0 ? item.next : item.previous)
        }}
      >
        {inDialog ? null : <BackLink to={photosHref(category)}>← All photos and videos</BackLink>}
        <MediaItemDetail item={item} category={category} inDialog={inDialog} />
      </article>
    </>
  )
}
