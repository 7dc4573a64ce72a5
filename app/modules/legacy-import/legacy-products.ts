/** Reading the old site's marketplace documents (see legacy-documents.ts). */
import { PRODUCT_IMAGES_MAX } from '~/modules/marketplace/marketplace.schema'
import { DEFAULT_PRODUCT_CATEGORY, isProductCategory, type ProductCategory } from '~/modules/marketplace/product-categories'
import { isFacebookLink, isInstagramLink } from '~/modules/marketplace/product-contact-links'
import { normaliseWhatsAppNumber } from '~/platform/phone-numbers'
import { parsePrice } from '~/modules/marketplace/product-price'
import { createdAtOf, fileRefOfUrl, MalformedDocumentError, textOf, type FileRef, type LegacyDocument } from './legacy-documents'

export interface LegacyProduct {
  name: string
  description: string
  price: number | null
  category: ProductCategory
  facebookLink: string
  instagramLink: string
  whatsappNumber: string
  images: FileRef[]
  createdAt: string
}

/**
 * The image URLs of a product: `imageUrls` is a JSON-encoded list (or a list); if it is absent
 * or unreadable, the single `imageUrl` is the list, as the old site read it.
 */
export function productImageUrls(doc: LegacyDocument, warnings: string[]): string[] {
  const single = textOf(doc, 'imageUrl')
  const fallback = single ? [single] : []
  let list: unknown = doc.imageUrls
  if (list === undefined || list === null || list === '') return fallback
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list)
    } catch {
      warnings.push(`imageUrls is not a JSON list; ${single ? 'used imageUrl instead' : 'imported without images'}`)
      return fallback
    }
  }
  if (!Array.isArray(list) || !list.every((url) => typeof url === 'string')) {
    warnings.push(`imageUrls is not a list of URLs; ${single ? 'used imageUrl instead' : 'imported without images'}`)
    return fallback
  }
  const urls = [...new Set(list.map((url: string) => url.trim()).filter((url) => url !== ''))]
  return urls.length > 0 ? urls : fallback
}

function priceOf(value: unknown, warnings: string[]): number | null {
  if (value === undefined || value === null || value === '') return null
  const text = typeof value === 'number' ? (Number.isFinite(value) && value >= 0 ? value.toFixed(3) : 'x') : String(value)
  const cents = parsePrice(text)
  if (cents !== 'invalid') return cents
  warnings.push(`price '${String(value).slice(0, 40)}' is not a price; left out`)
  return null
}

function linkOf(
  doc: LegacyDocument,
  field: string,
  label: string,
  accepts: (url: string) => boolean,
  warnings: string[],
): string {
  const link = textOf(doc, field)
  if (!link) return ''
  if (link.length <= 500 && accepts(link)) return link
  warnings.push(`${field} '${link.slice(0, 80)}' is not an address on ${label}; dropped`)
  return ''
}

/** A product of the `marketplace` collection. `countryCode` completes a 7-digit local WhatsApp number. */
export function readProductDocument(doc: LegacyDocument, countryCode: string, warnings: string[]): LegacyProduct {
  const name = textOf(doc, 'name')
  const description = textOf(doc, 'description')
  // The old site's message.
  if (!name || !description) throw new MalformedDocumentError('Name and description are required')
  if (name.length > 120) throw new MalformedDocumentError('name is longer than 120 characters')
  if (description.length > 5_000) throw new MalformedDocumentError('description is longer than 5000 characters')

  let urls = productImageUrls(doc, warnings)
  if (urls.length > PRODUCT_IMAGES_MAX) {
    warnings.push(`${urls.length} images; the first ${PRODUCT_IMAGES_MAX} kept`)
    urls = urls.slice(0, PRODUCT_IMAGES_MAX)
  }
  const images = urls.map((url) => fileRefOfUrl(url, 'an image URL'))

  const category = textOf(doc, 'category')
  if (category && !isProductCategory(category))
    warnings.push(`category '${category.slice(0, 40)}' is unknown; filed under ${DEFAULT_PRODUCT_CATEGORY}`)

  // The old site kept a phone number; a wa.me link is read for its digits.
  const whatsapp = textOf(doc, 'whatsappLink').replace(/^https?:\/\/(?:api\.)?wa\.me\/(\+?\d+).*$/i, '+$1')
  const number = whatsapp ? normaliseWhatsAppNumber(whatsapp, countryCode) : null
  if (number === 'invalid') warnings.push(`whatsappLink '${whatsapp.slice(0, 40)}' is not a phone number; dropped`)

  return {
    name,
    description,
    price: priceOf(doc.price, warnings),
    category: isProductCategory(category) ? category : DEFAULT_PRODUCT_CATEGORY,
    facebookLink: linkOf(doc, 'facebookLink', 'Facebook', isFacebookLink, warnings),
    instagramLink: linkOf(doc, 'instagramLink', 'Instagram', isInstagramLink, warnings),
    whatsappNumber: number === 'invalid' || number === null ? '' : number,
    images,
    createdAt: createdAtOf(doc),
  }
}
