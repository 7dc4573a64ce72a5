import { ProductMeta } from './product-card'
import { ImageCarousel } from '~/components/image-carousel'
import { NewTabLink } from '~/components/new-tab-link'
import type { ProductDetail } from '~/modules/marketplace/marketplace.queries.server'
import type { Shared } from '~/platform/shared'
import { whatsAppChatUrl } from '~/modules/marketplace/product-contact-links'
import { formatWhatsAppNumber } from '~/platform/phone-numbers'

interface ProductDetailProps {
  product: Shared<ProductDetail>
  /** The product page's address, sent along in the WhatsApp message. */
  url: string
}

/** A product's pictures, words and contact buttons. */
export function ProductDetail({ product, url }: ProductDetailProps) {
  return (
    <div className="product-detail-layout">
      <ImageCarousel images={product.images} label={product.name} sizes="(min-width: 48rem) 24rem, 100vw" loading="eager" />
      <div className="product-detail-text">
        <h1 id="product-name">{product.name}</h1>
        <ProductMeta product={product} />
        <div className="markdown-text" dangerouslySetInnerHTML={{ __html: product.descriptionHtml }} />
        <ContactButtons product={product} url={url} />
      </div>
    </div>
  )
}

function ContactButtons({
  product,
  url,
}: {
  product: { name: string; facebookLink: string; instagramLink: string; whatsappNumber: string }
  url: string
}) {
  if (!product.facebookLink && !product.instagramLink && !product.whatsappNumber) return null
  return (
    <div className="button-row product-contact">
      {product.facebookLink ? (
        <NewTabLink href={product.facebookLink} className="button-secondary product-contact-facebook">
          View on Facebook
        </NewTabLink>
      ) : null}
      {product.instagramLink ? (
        <NewTabLink href={product.instagramLink} className="button-secondary product-contact-instagram">
          View on Instagram
        </NewTabLink>
      ) : null}
      {product.whatsappNumber ? (
        <NewTabLink href={whatsAppChatUrl(product.whatsappNumber, product.name, url)} className="button product-contact-whatsapp">
          Chat on WhatsApp <span className="product-contact-number">{formatWhatsAppNumber(product.whatsappNumber)}</span>
        </NewTabLink>
      ) : null}
    </div>
  )
}
