import type { SiteSettings } from './settings.schema'

/**
 * What a site shows before an administrator has saved anything (a new install without demo
 * content). Kept apart from the schema so that pages can use it without loading zod.
 */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  organisationName: 'Our Charity',
  tagline: '',
  foundedYear: '',
  footerText: '',
  phone: '',
  email: '',
  location: '',
  facebookUrl: '',
  instagramUrl: '',
  whatsappNumber: '',
  phoneCountryCode: '1268',
  donationUrl: '',
  distributionHours: '',
  bankAccounts: [],
  impactFigures: [],
  timeZone: 'America/Antigua',
}
