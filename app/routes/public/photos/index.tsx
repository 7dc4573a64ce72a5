import { useEffect, useRef } from 'react'
import {
  data,
  redirect,
  useLocation,
  useNavigate,
  useOutlet,
  useParams,
  type ShouldRevalidateFunctionArgs,
  Link,
} from 'react-router'
import type { Route } from './+types/index'
import { editHandle } from '~/components/admin-bar'
import { AdminEntryLink } from '~/components/admin-entry-link'
import { ConfirmButton } from '~/components/confirm-button'
import { useRootData } from '~/components/root-data'
import { MediaThumbnail } from '~/components/media-thumbnail'
import { Pagination } from '~/components/pagination'
import { listPublishedMedia } from '~/modules/gallery/gallery.queries.server'
import {
  CATEGORY_REDIRECT_HEADERS,
  isMediaCategory,
  MEDIA_CATEGORIES,
  mediaCategoryWrittenOtherwise,
  mediaHref,
  photosHref,
  type MediaCategory,
} from '~/modules/gallery/media-categories'
import { canManage } from '~/platform/access'
import { parsePageNumber } from '~/platform/page-number'
import { declareQueryParams } from '~/platform/query-params'
import { pageMeta } from '~/platform/seo'

export const meta: Route.MetaFunction = (args) => {
  const category = args.loaderData?.category
  return pageMeta(args, {
    title: category ? `Photos: ${category}` : 'Photos and Videos',
    description: 'Photos and videos of our events, classes, health work, community life and projects.',
  })
}

/** How an item opened over the grid marks its history entry, so closing it can go back. */
export interface MediaOpenedFromList {
  fromList: true
}

/** The category of `?category=`: null for all, undefined for one that does not exist. */
function parseCategory(value: string | null): MediaCategory | null | undefined {
  if (value === null) return null
  return isMediaCategory(value) ? value : undefined
}

export const queryParams = declareQueryParams('category', 'page')

/** The admin bar's "Edit this page". */
export const handle = editHandle(() => ({ section: 'gallery', path: '/admin/photos' }))

export async function loader({ request, params }: Route.LoaderArgs) {
  const query = queryParams.read(request)
  const category = parseCategory(query.category)
  if (category === undefined) {
    // One address per category, so that its variants are neither kept apart nor refused.
    const meant = mediaCategoryWrittenOtherwise(query.category)
    if (!meant) throw data(null, { status: 404 })
    // An item's own loader sends its address on, with the preview only it reads.
    if (params.slug) return { category: meant, list: null }
    const page = parsePageNumber(query.page)
    if (page === null) throw data(null, { status: 404 })
    throw redirect(photosHref(meant, page), { status: 301, headers: CATEGORY_REDIRECT_HEADERS })
  }
  // Loaded directly, /photos/<slug> shows the item alone: the grid is not needed (see shouldRevalidate).
  if (params.slug) return { category, list: null }
  const page = parsePageNumber(query.page)
  if (page === null) throw data(null, { status: 404 })
  const list = await listPublishedMedia(category, page)
  if (page > list.pageCount) throw data(null, { status: 404 })
  return { category, list }
}

export function shouldRevalidate({ currentParams, nextParams, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  // Opening an item over the grid, or going to the next one: the grid stays as it is.
  if (nextParams.slug) return false
  // Leaving an item: if it was loaded on its own, the grid was skipped, so fetch it now.
  if (currentParams.slug) return true
  return defaultShouldRevalidate
}

export default function Photos({ loaderData }: Route.ComponentProps) {
  const { category, list } = loaderData
  const item = useOutlet({ inDialog: list !== null, category } satisfies MediaOutletContext)
  const { user } = useRootData()
  // A direct load of an item: the item's own page.
  if (!list) return item

  const { items, page, pageCount } = list
  const manager = canManage(user, 'gallery')
  return (
    <div className="container section gallery-page">
      <div className="gallery-header">
        <h1>Photos and Videos</h1>
        {manager ? (
          <Link to="/admin/photos?from=photos#upload-heading" className="button button-small">
            Upload
          </Link>
        ) : null}
      </div>
      <nav aria-label="Categories" className="gallery-tabs">
        <ul>
          {[null, ...MEDIA_CATEGORIES].map((tab) => (
            <li key={tab ?? 'all'}>
              <Link
                to={photosHref(tab)}
                className="gallery-tab"
                aria-current={tab === category ? 'page' : undefined}
                preventScrollReset
              >
                {tab ?? 'All'}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {items.length === 0 ? (
        <div className="gallery-empty">
          <h2>{category ? `No Media in ${category}` : 'No Media Yet'}</h2>
          <p>Check back soon for new photos and videos.</p>
        </div>
      ) : (
        <ul className="gallery-grid">
          {items.map((media, index) => (
            <li key={media.slug} className="gallery-item">
              <Link
                to={mediaHref(media.slug, category)}
                state={{ fromList: true } satisfies MediaOpenedFromList}
                preventScrollReset
                className="gallery-link"
                data-media-slug={media.slug}
              >
                <MediaThumbnail
                  item={media}
                  sizes="(min-width: 72rem) 17rem, (min-width: 64rem) 25vw, (min-width: 40rem) 33vw, 50vw"
                  loading={index < 4 && page === 1 ? 'eager' : 'lazy'}
                />
                <span className="gallery-item-title">
                  {media.kind === 'video' ? <span className="visually-hidden">Video: </span> : null}
                  {media.title}
                </span>
              </Link>
              <span className="gallery-item-category">{media.category}</span>
              {manager ? (
                <div className="button-row gallery-item-manage">
                  <Link to={`/admin/photos/${media.id}`} className="button-secondary button-small">
                    Edit<span className="visually-hidden"> {media.title}</span>
                  </Link>
                  <ConfirmButton
                    action="/admin/photos"
                    hiddenFields={{ intent: 'delete', id: media.id, returnTo: '/photos' }}
                    label={`Delete ${media.kind}`}
                    title={`Delete ${media.kind}`}
                    confirmText={`Are you sure you want to delete this ${media.kind}?`}
                    confirmLabel="Delete"
                    className="button-danger button-small"
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <Pagination
        page={page}
        pageCount={pageCount}
        label="More photos and videos"
        hrefOf={(p) => photosHref(category, p)}
        newerLabel="Newer"
        olderLabel="Older"
        className="gallery-pagination"
        linkClassName="button-secondary"
      />

      <AdminEntryLink section="gallery" returnTo={photosHref(category)} />
      {item ? <MediaDialog category={category}>{item}</MediaDialog> : null}
    </div>
  )
}

export interface MediaOutletContext {
  inDialog: boolean
  category: MediaCategory | null
}

/** The item opened from the grid, over the grid; its own URL is in the address bar meanwhile. */
function MediaDialog({ category, children }: { category: MediaCategory | null; children: React.ReactNode }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const navigate = useNavigate()
  const location = useLocation()
  const { slug } = useParams()
  // The item shown last: after arrowing through several, focus returns to its place in the grid.
  const shownSlug = useRef(slug)
  shownSlug.current = slug

  useEffect(() => {
    const dialog = dialogRef.current
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog?.showModal()
    return () => {
      const card = document.querySelector<HTMLElement>(`[data-media-slug="${CSS.escape(shownSlug.current ?? '')}"]`)
      const target = card ?? opener
      if (target?.isConnected) target.focus()
    }
  }, [])

  function close() {
    if ((location.state as MediaOpenedFromList | null)?.fromList) navigate(-1)
    else navigate(photosHref(category), { preventScrollReset: true })
  }

  return (
    <dialog
      ref={dialogRef}
      className="gallery-dialog"
      aria-labelledby="media-title"
      onCancel={(event) => {
        event.preventDefault()
        close()
      }}
      onClick={(event) => {
        // Only a click on the backdrop lands on the dialog itself; its content sits in the body.
        if (event.target === event.currentTarget) close()
      }}
    >
      <div className="gallery-dialog-body">
        <button type="button" className="gallery-dialog-close" onClick={close}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Close</span>
        </button>
        {children}
      </div>
    </dialog>
  )
}
