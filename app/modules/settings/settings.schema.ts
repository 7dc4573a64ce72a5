import { z } from 'zod'
import { optionalText, requiredText, text } from '~/platform/form-schema'

/**
 * Site-wide settings: who the organisation is, how to reach it, how to give, and its impact
 * figures. Shared by the admin form (browser) and the server; stored as one JSON document.
 */

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.')
  } catch {
    return false
  }
}

function optionalWebAddress(label: string) {
  return optionalText(label, 500).refine(
    (v) => v === '' || isWebAddress(v),
    `${label} must be a full web address starting with https://`,
  )
}

export function isValidTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** A row left completely empty arrives as undefined and is dropped, so forms can offer spare rows. */
function blankToUndefined(row: unknown) {
  const blank = !row || (typeof row === 'object' && Object.values(row).every((v) => v === undefined || String(v).trim() === ''))
  return blank ? undefined : row
}

function rows<T extends z.ZodType>(row: T, max: number, noun: string) {
  return z
    .array(z.preprocess(blankToUndefined, row.optional()))
    .max(max, `At most ${max} ${noun}`)
    .default([])
    .transform((items) => items.filter((item): item is z.output<T> => item !== undefined))
}

export const MAX_BANK_ACCOUNTS = 10
export const MAX_IMPACT_FIGURES = 12

export const BankAccountSchema = z.object({
  label: requiredText('Label', 80),
  bank: requiredText('Bank', 120),
  accountName: requiredText('Account name', 120),
  accountNumber: requiredText('Account number', 60),
  notes: optionalText('Notes', 500),
})

export const ImpactFigureSchema = z.object({
  value: requiredText('Figure', 20),
  label: requiredText('Label', 80),
  description: optionalText('Description', 300),
})

export const SiteSettingsSchema = z.object({
  organisationName: requiredText('Organisation name', 120),
  tagline: optionalText('Tagline', 200),
  foundedYear: text()
    .trim()
    .regex(/^(\d{4})?$/, 'Enter the year as four digits, e.g. 2008')
    .optional()
    .transform((v) => v ?? ''),
  footerText: optionalText('Footer text', 300),
  phone: optionalText('Phone', 40),
  email: text({ error: 'E-mail is required' })
    .trim()
    .min(1, 'E-mail is required')
    .pipe(z.email('Enter an e-mail address like info@example.org').max(200, 'E-mail must be at most 200 characters')),
  location: optionalText('Location', 120),
  facebookUrl: optionalWebAddress('Facebook page'),
  instagramUrl: optionalWebAddress('Instagram page'),
  whatsappNumber: text()
    .trim()
    .regex(/^(\+?[\d\s().-]{7,24})?$/, 'Enter the WhatsApp number with its country code, e.g. +1 268 555 0100')
    .optional()
    // Stored as digits only: the chat link is https://wa.me/<digits>.
    .transform((v) => (v ?? '').replace(/\D/g, '')),
  phoneCountryCode: text()
    .trim()
    .regex(/^(\+?\s*\d{1,4}(\s?\d{1,4})?)?$/, 'Enter the country calling code, e.g. +1 268')
    .optional()
    // Digits only: a 7-digit local WhatsApp number of a product gets them in front.
    .transform((v) => (v ?? '').replace(/\D/g, '')),
  donationUrl: optionalWebAddress('Donation page'),
  distributionHours: optionalText('Distribution hours', 200),
  bankAccounts: rows(BankAccountSchema, MAX_BANK_ACCOUNTS, 'bank accounts'),
  impactFigures: rows(ImpactFigureSchema, MAX_IMPACT_FIGURES, 'impact figures'),
  timeZone: text({ error: 'Time zone is required' })
    .trim()
    .min(1, 'Time zone is required')
    .refine(isValidTimeZone, 'Unknown time zone: use a name like America/Antigua')
    // Stored in its canonical spelling ('utc' becomes 'UTC').
    .transform((zone) => new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone),
})

export type SiteSettingsInput = z.input<typeof SiteSettingsSchema>
export type SiteSettings = z.output<typeof SiteSettingsSchema>

/**
 * The settings every page's frame and scripts use, handed to every page that ships scripts; the
 * lists that only a few pages show (bank accounts, impact figures) are not. Listed, not left out,
 * so that a new setting reaches every page only when it is added here.
 */
export const FRAME_SETTINGS = [
  'organisationName',
  'tagline',
  'foundedYear',
  'footerText',
  'phone',
  'email',
  'location',
  'facebookUrl',
  'instagramUrl',
  'whatsappNumber',
  'phoneCountryCode',
  'donationUrl',
  'distributionHours',
  'timeZone',
] as const satisfies readonly (keyof SiteSettings)[]

export type FrameSettings = Pick<SiteSettings, (typeof FRAME_SETTINGS)[number]>
