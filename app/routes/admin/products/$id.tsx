import { data } from 'react-router'
import { BackLink } from '~/components/back-link'
import { getSiteOrigin } from '~/platform/site-url.server'
import { withSiteLinksRelative } from '~/platform/site-links'
import type { Route } from './+types/$id'
import { ViewOrPreview } from '~/components/view-or-preview'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ProductForm } from './product-form'
import { productFailureReply } from './product-failure'
import { getProductForEdit } from '~/modules/marketplace/marketplace.queries.server'
import { productSchema } from '~/modules/marketplace/marketplace.schema'
import { formatWhatsAppNumber } from '~/platform/phone-numbers'
import { ProductNotFoundError, updateProduct } from '~/modules/marketplace/marketplace.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { publishingOf } from '~/platform/publication.server'
import { redirectToTrash } from '~/modules/trash/trash.server'
import { publishChoiceDefaults } from '~/platform/publication'
import { requireAccess } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = ({ data }) => [{ title: `Edit ${data?.product.name ?? 'product'} | Site admin` }]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'products')
  const [product, settings] = await Promise.all([getProductForEdit(params.id), siteSettingsFor(context)])
  if (!product) throw data('Product not found', { status: 404 })
  if (product.trashedAt) throw redirectToTrash(product.name)
  return {
    product,
    countryCode: settings.phoneCountryCode,
    timeZone: settings.timeZone,
    publishing: publishChoiceDefaults(product.publishAt, settings.timeZone),
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'products')
  const { phoneCountryCode, timeZone } = await siteSettingsFor(context)
  const submission = await parseFormSubmission(request, productSchema(phoneCountryCode))
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const publishing = await publishingOf(submission.value, timeZone, { table: 'products', id: params.id })
    await updateProduct(
      params.id,
      { ...withSiteLinksRelative(submission.value, 'description', getSiteOrigin(request, context)), ...publishing },
      user,
    )
  } catch (error) {
    if (error instanceof ProductNotFoundError) {
      return redirectWithToast('/admin/products', 'This product has been deleted in the meantime.', 'error')
    }
    return productFailureReply(submission, error, 'update')
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'product.edited',
    target: { type: 'product', id: params.id, label: submission.value.name },
  })
  return redirectWithToast('/admin/products', 'Changes saved.')
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product, countryCode, timeZone, publishing } = loaderData
  return (
    <div className="stack">
      <BackLink to="/admin/products">All products</BackLink>
      <h1>Edit {product.name}</h1>
      <div>
        <ViewOrPreview
          table="products"
          id={product.id}
          path={`/marketplace/${encodeURIComponent(product.slug)}`}
          publish={publishing.publish}
          viewLabel="View it in the marketplace"
        />
      </div>
      {/* A new form after each save: the images it shows are the product's now. */}
      <ProductForm
        key={product.updatedAt}
        lastResult={actionData?.result}
        countryCode={countryCode}
        timeZone={timeZone}
        currentImages={product.images}
        defaultValue={{
          name: product.name,
          description: product.description,
          price: product.priceCents === null ? '' : (product.priceCents / 100).toFixed(2),
          category: product.category,
          seller: product.seller,
          facebookLink: product.facebookLink,
          instagramLink: product.instagramLink,
          whatsappNumber: product.whatsappNumber ? formatWhatsAppNumber(product.whatsappNumber) : '',
          ...publishing,
        }}
        submitLabel="Save changes"
        submittingLabel="Saving..."
      />
    </div>
  )
}
