import { z } from 'zod'
import { requiredText, text } from '~/platform/form-schema'
import { singleImageFields } from '~/platform/media/image-field'

/**
 * The editable texts of each public page, one JSON document per page. Lists whose length the
 * layout depends on (four values, six services...) are fixed; contact persons may be 0-4.
 * Shared by the admin form (browser) and the server. Where a text is shown as prose, a blank line
 * starts a new paragraph.
 */

function optionalText(label: string, max: number) {
  return text().trim().max(max, `${label} must be at most ${max} characters`).optional()
}

function list<T extends z.ZodType>(item: T, count: number) {
  return z.array(item).length(count, `Exactly ${count} entries are needed`)
}

const HeroSchema = z.object({ title: requiredText('Title', 120), text: requiredText('Text', 400) })
const CardSchema = z.object({ title: requiredText('Title', 120), text: requiredText('Text', 1000) })
const SectionSchema = z.object({ heading: requiredText('Heading', 120), text: requiredText('Text', 2000) })

const ContactPersonSchema = z.object({
  name: requiredText('Name', 120),
  role: requiredText('Role', 200),
  phone: optionalText('Phone', 40),
  email: z.email('Enter an e-mail address like name@example.org').max(200).optional(),
})

function blankToUndefined(row: unknown) {
  const blank = !row || (typeof row === 'object' && Object.values(row).every((v) => v === undefined || v === ''))
  return blank ? undefined : row
}

export const HomeContentSchema = z.object({
  hero: HeroSchema,
  programmes: z.object({ heading: requiredText('Heading', 120), items: list(CardSchema, 2) }),
  helpAreas: z.object({
    heading: requiredText('Heading', 120),
    text: requiredText('Text', 600),
    items: list(CardSchema, 4),
  }),
  impact: SectionSchema,
  donation: SectionSchema,
})

export const AboutContentSchema = z.object({
  hero: HeroSchema,
  journey: SectionSchema.extend({ text: requiredText('Text', 5000) }),
  values: z.object({ heading: requiredText('Heading', 120), items: list(CardSchema, 4) }),
  initiatives: z.object({ heading: requiredText('Heading', 120), items: list(CardSchema, 2) }),
  outreach: SectionSchema,
  contactPersons: z.object({
    heading: requiredText('Heading', 120),
    text: requiredText('Text', 600),
    // A row left completely empty arrives as undefined and is dropped, so the form can offer spare rows.
    people: z
      .array(z.preprocess(blankToUndefined, ContactPersonSchema.optional()))
      .max(4, 'At most 4 contact persons')
      .default([])
      .transform((rows) => rows.filter((row) => row !== undefined)),
  }),
  callToAction: SectionSchema,
})

export const ServicesContentSchema = z.object({
  hero: HeroSchema,
  services: z.object({ heading: requiredText('Heading', 120), items: list(CardSchema, 6) }),
  impact: SectionSchema,
  callToAction: SectionSchema,
})

export const SupportContentSchema = z.object({
  hero: HeroSchema,
  waysToHelp: z.object({ heading: requiredText('Heading', 120), items: list(CardSchema, 3) }),
  giveOnline: SectionSchema,
  bankTransfer: SectionSchema.extend({
    referenceNote: requiredText('Reference note', 300),
    receiptNote: requiredText('Receipt note', 300),
  }),
  distribution: SectionSchema,
  poetryBooks: SectionSchema,
  contact: SectionSchema,
})

export const ImpactContentSchema = z.object({
  hero: HeroSchema,
  intro: SectionSchema,
  closing: SectionSchema,
})

export const MarketplaceContentSchema = z.object({
  hero: HeroSchema,
  intro: SectionSchema,
})

export const PrivacyContentSchema = z.object({
  hero: HeroSchema,
  whatWeKeep: SectionSchema.extend({ text: requiredText('Text', 5000) }),
  yourChoices: SectionSchema.extend({ text: requiredText('Text', 5000) }),
})

export const PageContentSchemas = {
  home: HomeContentSchema,
  about: AboutContentSchema,
  services: ServicesContentSchema,
  support: SupportContentSchema,
  impact: ImpactContentSchema,
  marketplace: MarketplaceContentSchema,
  privacy: PrivacyContentSchema,
} as const

export type PageKey = keyof typeof PageContentSchemas
export const PAGE_KEYS = Object.keys(PageContentSchemas) as PageKey[]
export type PageContent = { [K in PageKey]: z.output<(typeof PageContentSchemas)[K]> }

/** The hero photograph's fields of the page-texts form: `image`, `imageAlt`, `removeImage`. */
export const HeroImageFields = singleImageFields('hero')
export type HeroImageInput = { image?: File; imageAlt: string; removeImage: boolean }

/** The admin form of a page: its texts and, beside them, the hero photograph (stored apart from the texts). */
export const PageFormSchemas = {
  home: HomeContentSchema.extend(HeroImageFields),
  about: AboutContentSchema.extend(HeroImageFields),
  services: ServicesContentSchema.extend(HeroImageFields),
  support: SupportContentSchema.extend(HeroImageFields),
  impact: ImpactContentSchema.extend(HeroImageFields),
  marketplace: MarketplaceContentSchema.extend(HeroImageFields),
  privacy: PrivacyContentSchema.extend(HeroImageFields),
} as const satisfies Record<PageKey, z.ZodType>
