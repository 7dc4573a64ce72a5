/**
 * The marketplace's categories, in the order of its filters (after 'All'). Apart from the form's
 * schema, so that public pages show them without loading zod.
 */
export const PRODUCT_CATEGORIES = ['general', 'clothing', 'crafts'] as const
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number]
export const DEFAULT_PRODUCT_CATEGORY: ProductCategory = 'general'
export const PRODUCT_CATEGORY_LABELS: Record<ProductCategory, string> = {
  general: 'General',
  clothing: 'Clothing',
  crafts: 'Crafts',
}

export function isProductCategory(value: unknown): value is ProductCategory {
  return PRODUCT_CATEGORIES.includes(value as ProductCategory)
}
