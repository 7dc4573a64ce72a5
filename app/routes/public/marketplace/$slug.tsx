import { data, useOutletContext } from 'react-router'
import type { Route } from './+types/$slug'
import { ProductDetail } from './product-detail'
import { editHandle } from '~/components/admin-bar'
import { PreviewBanner } from '~/components/preview-banner'
import { pagePreview, previewPageHeaders } from '~/modules/previews/preview-page.server'
import { previewQueryParam } from '~/modules/previews/previews'
import { getProductBySlug } from '~/modules/marketplace/marketplace.queries.server'
import { formatPrice } from '~/modules/marketplace/product-price'
import { itemPageMeta, NOINDEX } from '~/platform/seo'
import { declareQueryParams } from '~/platform/query-params'
import { siteSettingsFor } from '~/modules/settings/settings.context.server'
import { requestInfoContext } from '~/platform/request-context'
import { getSiteOrigin } from '~/platform/site-url.server'
import { BackLink } from '~/components/back-link'

/** The admin bar's "Edit this page". */
export const handle = editHandle<Route.ComponentProps['loaderData']>(({ product }) => ({
  section: 'products',
  path: `/admin/products/${encodeURIComponent(product.id)}`,
}))

export const queryParams = declareQueryParams(previewQueryParam)

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const origin = getSiteOrigin(request, context)
  const { timeZone } = await siteSettingsFor(context)
  const preview = await pagePreview(queryParams.read(request).preview, 'products', {
    url: url.href,
    origin,
    timeZone,
    secure: context.get(requestInfoContext).secure,
  })
  const product = await getProductBySlug(params.slug, preview.audience)
  if (!product) throw data(null, { status: 404 })
  return data(
    { product, url: `${origin}/marketplace/${encodeURIComponent(product.slug)}`, preview: preview.notice },
    { headers: preview.headers },
  )
}

export const headers: Route.HeadersFunction = previewPageHeaders

export const meta: Route.MetaFunction = (args) => {
  const product = args.loaderData?.product
  if (!product) return []
  const price = formatPrice(product.priceCents)
  return itemPageMeta(args, {
    title: product.name,
    description: price ? `${price} · ${product.descriptionText}` : product.descriptionText,
    socialImage: product.socialImage,
    extra: args.loaderData.preview ? [NOINDEX] : [],
  })
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, url, preview } = loaderData
  // Shown inside the list's dialog when opened from the list; on its own page otherwise.
  const { inDialog } = useOutletContext<{ inDialog: boolean }>()
  return (
    <>
      {preview ? <PreviewBanner notice={preview} /> : null}
      <article className={inDialog ? 'product-detail' : 'container section product-detail product-detail-page'}>
        {inDialog ? null : <BackLink to="/marketplace">← All products</BackLink>}
        <ProductDetail product={product} url={url} />
      </article>
    </>
  )
}
