import type { SiteSettings } from './settings.schema'

/**
 * Demo settings for a new site, telling our first customer's story. The name, phone, e-mail,
 * links and bank details are SAMPLE DATA (reserved 555 number, example.org addresses, a
 * made-up bank): an administrator replaces them under /admin/settings.
 */
export const DEMO_SITE_SETTINGS: SiteSettings = {
  organisationName: 'Hearts of Hope Ministry',
  tagline: 'Transforming lives through compassion and community support',
  foundedYear: '2008',
  footerText: 'Transforming lives through compassion and community support since 2008.',
  phone: '+1 (268) 555-0100',
  email: 'info@example.org',
  location: 'Antigua',
  facebookUrl: 'https://www.facebook.com/example',
  instagramUrl: 'https://www.instagram.com/example',
  whatsappNumber: '12685550100',
  phoneCountryCode: '1268',
  donationUrl: 'https://example.org/donate',
  distributionHours: 'Last Saturday of every month, 9:00 AM - 12:00 PM',
  bankAccounts: [
    {
      label: 'General Donations',
      bank: 'Sample Bank of Antigua',
      accountName: 'Hearts of Hope Ministry',
      accountNumber: '000-123456-01',
      notes: 'Sample account for the demo: replace it with your real details.',
    },
    {
      label: 'Cancer Support Fund',
      bank: 'Sample Bank of Antigua',
      accountName: 'Hearts of Hope Ministry - Cancer Support',
      accountNumber: '000-123456-02',
      notes: 'Sample account for the demo: replace it with your real details.',
    },
  ],
  impactFigures: [
    { value: '200+', label: 'Families Served', description: 'Families supported with food, clothing and care.' },
    { value: '40+', label: 'Cancer Survivors', description: 'Survivors walking together in our support community.' },
    { value: '100+', label: 'Young People', description: 'Youth aged 8-17 trained as young entrepreneurs.' },
    { value: '12+', label: 'Families Monthly', description: 'Families served at each monthly food and clothing distribution.' },
    { value: '100+', label: 'Children Annually', description: 'Children helped every year with school supplies and support.' },
    { value: '15+', label: 'Years of Service', description: 'Serving our community since 2008.' },
  ],
  timeZone: 'America/Antigua',
}
