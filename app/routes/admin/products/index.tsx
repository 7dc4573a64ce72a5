import { data, Link } from 'react-router'
import type { Route } from './+types/index'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { AdminBadge, AdminTable, EditDeleteCell, ThumbnailCell } from '~/components/admin-table'
import { AdminListPagination, adminListTitle } from '~/components/admin-list-pagination'
import { PublicationStateBadge, PublicationStateFilter } from '~/components/publication-state'
import { describePublication, parsePublicationState } from '~/platform/publication'
import { declareQueryParams } from '~/platform/query-params'
import { backToList, askedListPage, listPageCount } from '~/platform/admin-list-page.server'
import { countInState } from '~/platform/publication.server'
import { listProductsForAdmin } from '~/modules/marketplace/marketplace.queries.server'
import { DeleteProductSchema } from '~/modules/marketplace/marketplace.schema'
import { PRODUCT_CATEGORY_LABELS } from '~/modules/marketplace/product-categories'
import { moveToTrash } from '~/modules/trash/trash.server'
import { formatPrice } from '~/modules/marketplace/product-price'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requireAccess } from '~/platform/auth.server'
import { formatDate } from '~/platform/dates'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { logger } from '~/platform/logger.server'
import { redirectWithToast, redirectWithUndo } from '~/platform/toast.server'
import adminGalleryStylesUrl from '~/styles/admin-gallery.css?url'

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminGalleryStylesUrl }]

export const meta: Route.MetaFunction = ({ data }) => [{ title: adminListTitle('Products', data) }]

export const queryParams = declareQueryParams('state', 'page')

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'products')
  const asked = queryParams.read(request)
  const state = parsePublicationState(asked.state)
  const page = askedListPage(asked.page)
  const pageCount = listPageCount(request, page, await countInState('products', state))
  const [products, settings] = await Promise.all([listProductsForAdmin(state, page), siteSettingsFor(context)])
  return {
    state,
    page,
    pageCount,
    products: products.map((product) => ({
      ...product,
      publication: describePublication(product.publishAt, settings.timeZone),
      price: formatPrice(product.priceCents),
      dateLabel: formatDate(product.createdAt, settings.timeZone, 'date'),
    })),
  }
}

/** Deletes a product with its images (the marketplace page's delete control posts here too), then goes back. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'products')
  const submission = await parseFormSubmission(request, DeleteProductSchema)
  if (submission.status !== 'success') {
    return data({ error: 'Product ID is required for deletion' }, { status: 400 })
  }
  const { id } = submission.value
  const returnTo = backToList(request, submission.value.returnTo)
  let deleted: { label: string } | undefined
  try {
    deleted = await moveToTrash('product', id)
  } catch (error) {
    logger.error({ err: error, productId: id }, 'product could not be deleted')
    return redirectWithToast(returnTo, 'Failed to delete product', 'error')
  }
  if (deleted) {
    await recordAuditEvent({
      by: auditSourceOf(user, context),
      action: 'product.deleted',
      target: { type: 'product', id, label: deleted.label },
    })
    return redirectWithUndo(returnTo, 'Product moved to the trash.', { kind: 'product', id })
  }
  return redirectWithToast(returnTo, 'Product deleted.')
}

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { products, state, page, pageCount } = loaderData
  return (
    <div className="stack">
      <div className="admin-page-header">
        <h1>Products</h1>
        <div className="button-row">
          <Link to="/admin/products/new" className="button">
            Add Product
          </Link>
          <Link to="/marketplace" className="button-secondary">
            View marketplace
          </Link>
        </div>
      </div>
      {actionData?.error ? (
        <p className="form-errors" role="alert">
          {actionData.error}
        </p>
      ) : null}
      <PublicationStateFilter path="/admin/products" current={state} page={page} />
      {products.length === 0 ? (
        <p>{state ? 'No products in this state.' : 'No products yet. What you add appears in the marketplace, newest first.'}</p>
      ) : (
        <AdminTable
          caption="Products, newest first"
          columns={['Picture', 'Name', 'Category', 'Price', 'Added']}
          actions
          className="admin-media-table"
        >
          {products.map((product) => (
            <tr key={product.id}>
              <ThumbnailCell image={product.thumbnail} />
              <td data-label="Name">
                <Link to={`/marketplace/${encodeURIComponent(product.slug)}`}>{product.name}</Link>
                {product.seller ? <AdminBadge>by {product.seller}</AdminBadge> : null}
                {product.isSample ? <AdminBadge>sample</AdminBadge> : null}
                <PublicationStateBadge {...product.publication} />
                <AdminBadge>{product.imageCount === 1 ? '1 image' : `${product.imageCount} images`}</AdminBadge>
              </td>
              <td data-label="Category">{PRODUCT_CATEGORY_LABELS[product.category]}</td>
              <td data-label="Price">{product.price ?? 'On request'}</td>
              <td data-label="Added">
                <time dateTime={product.createdAt}>{product.dateLabel}</time>
              </td>
              <EditDeleteCell
                editTo={`/admin/products/${product.id}`}
                name={product.name}
                deleteFields={{ intent: 'delete', id: product.id }}
                confirmText="Are you sure you want to delete this product?"
              />
            </tr>
          ))}
        </AdminTable>
      )}
      <AdminListPagination path="/admin/products" state={state} page={page} pageCount={pageCount} label="Pages of products" />
    </div>
  )
}
