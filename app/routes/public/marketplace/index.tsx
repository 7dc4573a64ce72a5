import { data, useOutlet, type ShouldRevalidateFunctionArgs, Link } from 'react-router'
import type { Route } from './+types/index'
import { editHandle } from '~/components/admin-bar'
import { MarketplaceLogin } from './marketplace-login'
import { ProductCard } from './product-card'
import { PageHero, Paragraphs } from '~/components/page-blocks'
import { useRootData } from '~/components/root-data'
import { RouteDialog } from '~/components/route-dialog'
import { SignOutForm } from '~/components/sign-out-form'
import { SearchForm } from '~/components/search-form'
import { listProductsForVisitors } from '~/modules/marketplace/marketplace.queries.server'
import {
  isProductCategory,
  PRODUCT_CATEGORIES,
  PRODUCT_CATEGORY_LABELS,
  type ProductCategory,
} from '~/modules/marketplace/product-categories'
import { getPublicPage } from '~/modules/pages/pages.queries.server'
import { canManage } from '~/platform/access'
import { pageMeta } from '~/platform/seo'
import { declareQueryParams } from '~/platform/query-params'
import { SEARCH_TEXT_MAX } from '~/modules/search/search-words'

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.content?.hero.title ?? 'Youth Marketplace',
    description: args.loaderData?.content?.hero.text ?? '',
  })

type View = 'list' | 'grid'
const VIEW_COOKIE = 'marketplace-view'

/** The view chosen last (a cookie of this page only), list by default as the old site shows it. */
function rememberedView(request: Request): View {
  const cookie = request.headers.get('Cookie') ?? ''
  return new RegExp(`(?:^|;\\s*)${VIEW_COOKIE}=grid(?:;|$)`).test(cookie) ? 'grid' : 'list'
}

function rememberView(view: View): string {
  return `${VIEW_COOKIE}=${view}; Path=/marketplace; Max-Age=31536000; SameSite=Lax; HttpOnly`
}

/** The address of the list with these filters (the view is remembered by its cookie). */
function marketplaceHref(filter: { category: ProductCategory | null; search: string }, view?: View): string {
  const params = new URLSearchParams()
  if (filter.category) params.set('category', filter.category)
  if (filter.search) params.set('q', filter.search)
  if (view) params.set('view', view)
  const query = params.toString()
  return query ? `/marketplace?${query}` : '/marketplace'
}

// The list depends on the view cookie: a cache must keep one copy per cookie.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => ({ Vary: loaderHeaders.get('Vary') ?? 'Cookie' })

export const queryParams = declareQueryParams('category', 'q', 'view')

/** The admin bar's "Edit this page". */
export const handle = editHandle(() => ({ section: 'products', path: '/admin/products' }))

export async function loader({ request, params }: Route.LoaderArgs) {
  // Loaded directly, /marketplace/<slug> shows the product alone: the list is not needed.
  if (params.slug) return { list: null, content: null }
  const { category, q, view: chosenView } = queryParams.read(request)
  const filter = {
    category: isProductCategory(category) ? category : null,
    search: (q ?? '').trim().slice(0, SEARCH_TEXT_MAX),
  }
  const view: View = chosenView === 'grid' || chosenView === 'list' ? chosenView : rememberedView(request)
  const [{ content, heroImage }, products] = await Promise.all([getPublicPage('marketplace'), listProductsForVisitors(filter)])
  const headers = new Headers({ Vary: 'Cookie' })
  if (chosenView === view) headers.append('Set-Cookie', rememberView(view))
  return data({ list: { filter, view, products, heroImage }, content }, { headers })
}

export function shouldRevalidate({
  currentUrl,
  currentParams,
  nextParams,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // Opening a product over the list: the list stays as it is (only the product is fetched).
  if (currentUrl.pathname === '/marketplace' && !currentParams.slug && nextParams.slug) return false
  // Leaving a product loaded on its own: the list was skipped, so fetch it now.
  if (currentParams.slug && !nextParams.slug) return true
  return defaultShouldRevalidate
}

export default function Marketplace({ loaderData }: Route.ComponentProps) {
  const { list, content } = loaderData
  const product = useOutlet({ inDialog: list !== null })
  const { user } = useRootData()
  // A direct load of a product: the product's own page.
  if (!list || !content) return product

  const { filter, view, products } = list
  const manager = canManage(user, 'products')
  const filtered = filter.category !== null || filter.search !== ''
  return (
    <>
      <PageHero title={content.hero.title} text={content.hero.text} image={list.heroImage} className="marketplace-hero" />

      <div className="container section marketplace-page">
        <section className="marketplace-welcome" aria-labelledby="marketplace-welcome">
          <h2 id="marketplace-welcome">{content.intro.heading}</h2>
          <Paragraphs text={content.intro.text} />
        </section>

        <div className="marketplace-manage">
          {manager ? (
            <>
              <Link to="/admin/products/new" className="button button-small">
                Add Product
              </Link>
              <SignOutForm buttonClassName="button-secondary button-small">Logout</SignOutForm>
            </>
          ) : (
            <MarketplaceLogin />
          )}
        </div>

        <div className="marketplace-toolbar">
          <SearchForm
            action="/marketplace"
            id="marketplace-q"
            label="Search products"
            placeholder="Search products"
            words={filter.search}
            keep={{ category: filter.category }}
            className="marketplace-search"
            inputClassName="field-input"
            buttonClassName="button button-small"
            button="Search"
          />

          <nav aria-label="Product categories">
            <ul className="marketplace-filters">
              {[null, ...PRODUCT_CATEGORIES].map((category) => (
                <li key={category ?? 'all'}>
                  <Link
                    to={marketplaceHref({ ...filter, category })}
                    className="marketplace-filter"
                    aria-current={filter.category === category ? 'page' : undefined}
                    preventScrollReset
                  >
                    {category ? PRODUCT_CATEGORY_LABELS[category] : 'All'}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <ul className="marketplace-views" aria-label="Show products as">
            {(['list', 'grid'] as const).map((option) => (
              <li key={option}>
                <Link
                  to={marketplaceHref(filter, option)}
                  className="marketplace-view"
                  aria-current={view === option ? 'true' : undefined}
                  preventScrollReset
                  replace
                >
                  {option === 'list' ? 'List' : 'Grid'}
                </Link>
              </li>
            ))}
          </ul>
        </div>

        <p className="marketplace-count" role="status">
          {products.length === 1 ? '1 product' : `${products.length} products`}
          {filter.search ? ` matching “${filter.search}”` : ''}
          {filter.category ? ` in ${PRODUCT_CATEGORY_LABELS[filter.category]}` : ''}
        </p>

        {products.length === 0 ? (
          <div className="marketplace-empty">
            <h2>No products found</h2>
            {filtered ? (
              <p>
                No product matches this search. <Link to="/marketplace">Show all products</Link>
              </p>
            ) : (
              <p>There are no products available at the moment.</p>
            )}
          </div>
        ) : (
          <ul className={`product-list product-list-${view}`}>
            {products.map((item, index) => (
              <ProductCard key={item.slug} product={item} index={index} view={view} manager={manager} />
            ))}
          </ul>
        )}
      </div>

      {product ? (
        <RouteDialog labelledBy="product-name" closeTo={marketplaceHref(filter)} closeLabel="Close product">
          {product}
        </RouteDialog>
      ) : null}
    </>
  )
}
