import { data } from 'react-router'
import { BackLink } from '~/components/back-link'
import { getSiteOrigin } from '~/platform/site-url.server'
import { withSiteLinksRelative } from '~/platform/site-links'
import type { Route } from './+types/new'
import { auditSourceOf, recordAuditEvent } from '~/modules/audit/audit.service.server'
import { ProductForm } from './product-form'
import { productFailureReply } from './product-failure'
import { productSchema } from '~/modules/marketplace/marketplace.schema'
import { createProduct } from '~/modules/marketplace/marketplace.service.server'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { publishingOf } from '~/platform/publication.server'
import { requireAccess } from '~/platform/auth.server'
import { parseFormSubmission } from '~/platform/form-submission.server'
import { redirectWithToast } from '~/platform/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Add New Item | Site admin' }]

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAccess({ request, context }, 'products')
  const { phoneCountryCode, timeZone } = await siteSettingsFor(context)
  return { countryCode: phoneCountryCode, timeZone }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireAccess({ request, context }, 'products')
  const { phoneCountryCode, timeZone } = await siteSettingsFor(context)
  const submission = await parseFormSubmission(request, productSchema(phoneCountryCode))
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  let created: { id: string }
  try {
    created = await createProduct(
      {
        ...withSiteLinksRelative(submission.value, 'description', getSiteOrigin(request, context)),
        ...(await publishingOf(submission.value, timeZone)),
      },
      user,
    )
  } catch (error) {
    return productFailureReply(submission, error, 'add')
  }
  await recordAuditEvent({
    by: auditSourceOf(user, context),
    action: 'product.created',
    target: { type: 'product', id: created.id, label: submission.value.name },
  })
  return redirectWithToast('/admin/products', 'Product added.')
}

export default function NewProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="stack">
      <BackLink to="/admin/products">All products</BackLink>
      <h1>Add New Item</h1>
      <ProductForm
        lastResult={actionData?.result}
        countryCode={loaderData.countryCode}
        timeZone={loaderData.timeZone}
        submitLabel="Add Item"
        submittingLabel="Adding..."
      />
    </div>
  )
}
