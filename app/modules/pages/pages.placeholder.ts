import { demoPageContent } from './pages.demo'
import type { PageContent } from './pages.schema'

/**
 * The texts of an empty site's pages: each of the demo's texts replaced by a line saying what to
 * write there, so the layout shows and a volunteer sees every place to fill. The privacy page keeps
 * its text, which says what this software keeps, whoever runs it.
 */
const PLACEHOLDERS: Record<string, string> = {
  title: 'A title',
  heading: 'A heading',
  text: 'Write a sentence or two here. Replace this text under Admin → Page texts.',
  referenceNote: 'Say here what to write as the payment reference.',
  receiptNote: 'Say here how a giver gets a receipt.',
}

function placeholderOf(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return PLACEHOLDERS[key] ?? PLACEHOLDERS.text
  if (Array.isArray(value)) return key === 'people' ? [] : value.map((item) => placeholderOf(item))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([field, inner]) => [field, placeholderOf(inner, field)]))
  }
  return value
}

export const placeholderPageContent: PageContent = {
  ...(placeholderOf(demoPageContent) as PageContent),
  privacy: demoPageContent.privacy,
}
