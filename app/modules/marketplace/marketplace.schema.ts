import { z } from 'zod'
import { optionalText, text } from '~/platform/form-schema'
import { imageListFields } from '~/platform/media/image-field'
import { isFacebookLink, isInstagramLink } from './product-contact-links'
import { normaliseWhatsAppNumber } from '~/platform/phone-numbers'
import { DEFAULT_PRODUCT_CATEGORY, PRODUCT_CATEGORIES } from './product-categories'
import { parsePrice } from './product-price'
import { checkPublishChoice, publishChoiceFields } from '~/platform/publication'

export const PRODUCT_IMAGES_MAX = 8
export const TOO_MANY_IMAGES_MESSAGE = `A product can have at most ${PRODUCT_IMAGES_MAX} images.`
export const WHATSAPP_NUMBER_MESSAGE =
  'Enter a phone number as it is dialled here, e.g. 268 555 0100 or 555 0100, or from abroad with + and its country code, e.g. +44 20 7946 0958.'

// The old site's messages.
export const NAME_AND_DESCRIPTION_REQUIRED = 'Name and description are required'
export const IMAGES_FAILED_MESSAGE = 'Failed to upload images. Please try again.'
export const addFailedMessage = (reason: string) => `Failed to add product: ${reason}`

function requiredProductText(max: number, label: string) {
  return text({ error: NAME_AND_DESCRIPTION_REQUIRED })
    .trim()
    .min(1, NAME_AND_DESCRIPTION_REQUIRED)
    .max(max, `${label} must be at most ${max} characters`)
}

function optionalLink(label: string, accepts: (url: string) => boolean, example: string) {
  return optionalText(label, 500).refine((value) => value === '' || accepts(value), `Enter a ${label} address, e.g. ${example}`)
}

/**
 * A seller is named by a first name or a business name, nothing more: the sellers are children
 * and teenagers. An e-mail address or a phone number in that field is refused.
 */
const seller = optionalText('Seller', 60).refine(
  (value) => !/@/.test(value) && !/\d[\d\s().-]{5,}\d/.test(value),
  'Only a first name or a business name, please: no e-mail address or phone number.',
)

/**
 * The add and edit form of a product. The WhatsApp number is stored as international digits, a
 * number dialled at the site read with the site's calling code (`countryCode`, e.g. '1268').
 */
export function productSchema(countryCode: string) {
  return z
    .object({
      name: requiredProductText(120, 'Name'),
      description: requiredProductText(5_000, 'Description'),
      price: optionalText('Price', 20).transform((value, ctx) => {
        const cents = parsePrice(value)
        if (cents !== 'invalid') return cents
        ctx.addIssue({ code: 'custom', message: 'Enter the price as a number of dollars, e.g. 12.50, or leave it empty.' })
        return z.NEVER
      }),
      category: z.enum(PRODUCT_CATEGORIES, { error: 'Choose a category' }).default(DEFAULT_PRODUCT_CATEGORY),
      seller,
      facebookLink: optionalLink('Facebook', isFacebookLink, 'https://www.facebook.com/yourpage'),
      instagramLink: optionalLink('Instagram', isInstagramLink, 'https://www.instagram.com/yourpage'),
      whatsappNumber: optionalText('WhatsApp number', 30).transform((value, ctx) => {
        const digits = normaliseWhatsAppNumber(value, countryCode)
        if (digits !== 'invalid') return digits ?? ''
        ctx.addIssue({ code: 'custom', message: WHATSAPP_NUMBER_MESSAGE })
        return z.NEVER
      }),
      ...imageListFields({ max: PRODUCT_IMAGES_MAX, tooManyMessage: TOO_MANY_IMAGES_MESSAGE }),
      ...publishChoiceFields,
    })
    .superRefine(checkPublishChoice)
}

export type ProductInput = z.output<ReturnType<typeof productSchema>>
export type ProductFormValues = z.input<ReturnType<typeof productSchema>>

/** The admin list's delete form (the public page's delete control posts it too). */
export const DeleteProductSchema = z.object({
  intent: z.literal('delete'),
  id: text().trim().min(1, 'Product ID is required for deletion').max(100),
  returnTo: z.enum(['/admin/products', '/marketplace']).default('/admin/products'),
})
