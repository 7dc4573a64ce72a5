import { useNavigate, Link } from 'react-router'
import { ConfirmButton } from '~/components/confirm-button'
import { ImageCarousel } from '~/components/image-carousel'
import { LinkifiedText } from '~/components/linkified-text'
import { OPENED_OVER_LIST } from '~/components/route-dialog'
import type { ListedProduct, Product } from '~/modules/marketplace/marketplace.queries.server'
import type { Shared } from '~/platform/shared'
import { PRODUCT_CATEGORY_LABELS } from '~/modules/marketplace/product-categories'
import { formatPrice } from '~/modules/marketplace/product-price'

// Cards fade in one after another; past the first screenful they all come at once.
const STAGGERED_CARDS = 6

/** Price (when there is one), category and seller, under a product's name. */
export function ProductMeta({ product }: { product: Pick<Product, 'priceCents' | 'category' | 'seller'> }) {
  const price = formatPrice(product.priceCents)
  return (
    <p className="product-card-meta">
      {price ? <span className="product-price">{price}</span> : null}
      <span className="product-category">{PRODUCT_CATEGORY_LABELS[product.category]}</span>
      {product.seller ? <span className="product-seller">by {product.seller}</span> : null}
    </p>
  )
}

/**
 * A product in the marketplace's list or grid. A click anywhere on the card but its controls
 * (carousel buttons, links, the manager's buttons) opens the product's dialog; the name is that
 * link for keyboards and screen readers.
 */
export function ProductCard({
  product,
  index,
  view,
  manager,
}: {
  product: Shared<ListedProduct>
  index: number
  view: 'list' | 'grid'
  manager: boolean
}) {
  const navigate = useNavigate()
  const href = `/marketplace/${encodeURIComponent(product.slug)}`

  function open(event: React.MouseEvent) {
    if ((event.target as Element).closest('a, button, input, select, textarea, dialog')) return
    navigate(href, { state: OPENED_OVER_LIST, preventScrollReset: true })
  }

  return (
    // The name's link is the keyboard's way in; the click on the card is a larger target for fingers.
    <li
      className="product-card"
      onClick={open}
      style={{ '--card-index': Math.min(index, STAGGERED_CARDS) } as React.CSSProperties}
    >
      <ImageCarousel
        images={product.images}
        label={product.name}
        sizes={view === 'grid' ? '(min-width: 64rem) 20rem, (min-width: 40rem) 45vw, 100vw' : '(min-width: 40rem) 16rem, 100vw'}
        loading={index < 2 ? 'eager' : 'lazy'}
      />
      <div className="product-card-body">
        <h2 className="product-card-name">
          <Link to={href} state={OPENED_OVER_LIST} preventScrollReset>
            {product.name}
          </Link>
        </h2>
        <ProductMeta product={product} />
        <p className="product-card-description">
          <LinkifiedText text={product.descriptionText} owner={product} />
        </p>
        {manager ? (
          <div className="button-row product-card-manage">
            <Link to={`/admin/products/${product.id}`} className="button-secondary button-small">
              Edit<span className="visually-hidden"> {product.name}</span>
            </Link>
            <ConfirmButton
              action="/admin/products"
              hiddenFields={{ intent: 'delete', id: product.id, returnTo: '/marketplace' }}
              label="Delete product"
              title="Delete product"
              confirmText="Are you sure you want to delete this product?"
              confirmLabel="Delete"
              className="button-danger button-small"
            />
          </div>
        ) : null}
      </div>
    </li>
  )
}
