import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { seedDemoContentIfEmpty } from '../../../db/seed'
import { db, nowIso } from '~/platform/db.server'
import { DEMO_SITE_SETTINGS } from './settings.demo'
import { getSiteSettings, SITE_SETTINGS_KEY } from './settings.queries.server'
import { DEFAULT_SITE_SETTINGS } from './settings.defaults'
import { SiteSettingsSchema, type SiteSettings } from './settings.schema'
import { saveSiteSettings, seedSiteSettings } from './settings.service.server'

const actor = { id: 'admin-1' }

const valid: SiteSettings = {
  ...DEFAULT_SITE_SETTINGS,
  organisationName: 'Harbour Light Trust',
  email: 'office@example.org',
  phone: '+1 268 555 0199',
  whatsappNumber: '+1 (268) 555-0199',
  phoneCountryCode: '+1 268',
  bankAccounts: [{ label: 'General', bank: 'Sample Bank', accountName: 'Harbour Light', accountNumber: '12-34', notes: '' }],
  impactFigures: [{ value: '50+', label: 'Families', description: 'Fed every month' }],
  timeZone: 'Europe/London',
}

async function storeRaw(value: string) {
  await db.insertInto('settings').values({ key: SITE_SETTINGS_KEY, value, updatedAt: nowIso() }).execute()
}

describe('site settings', () => {
  it('are the defaults before anything is saved', async () => {
    const settings = await getSiteSettings()
    expect(settings).toEqual(DEFAULT_SITE_SETTINGS)
    expect(settings.timeZone).toBe('America/Antigua')
  })

  it('read back what an administrator saved, with the WhatsApp number as digits', async () => {
    await saveSiteSettings(valid, { actor })
    expect(await getSiteSettings()).toEqual({ ...valid, whatsappNumber: '12685550199', phoneCountryCode: '1268' })
  })

  it('refuse an unknown time zone and keep what was saved before', async () => {
    await saveSiteSettings(valid, { actor })
    await expect(saveSiteSettings({ ...valid, timeZone: 'Mars/Olympus_Mons' }, { actor })).rejects.toThrow('Unknown time zone')
    expect((await getSiteSettings()).timeZone).toBe('Europe/London')
  })

  it('refuse a malformed e-mail address and store nothing', async () => {
    await expect(saveSiteSettings({ ...valid, email: 'office@' }, { actor })).rejects.toThrow(
      'Enter an e-mail address like info@example.org',
    )
    expect(await getSiteSettings()).toEqual(DEFAULT_SITE_SETTINGS)
  })

  it('fall back to the default for one stored value that no longer validates, keeping the others', async () => {
    await storeRaw(JSON.stringify({ ...valid, timeZone: 'Nowhere/Atlantis', phone: 42 }))
    const settings = await getSiteSettings()
    expect(settings.timeZone).toBe('America/Antigua')
    expect(settings.phone).toBe('')
    expect(settings.organisationName).toBe('Harbour Light Trust')
  })

  it('fall back to the defaults when the stored document is not JSON', async () => {
    await storeRaw('{not json')
    expect(await getSiteSettings()).toEqual(DEFAULT_SITE_SETTINGS)
  })
})

describe('the settings form', () => {
  function formData(entries: Record<string, string>) {
    const data = new FormData()
    for (const [name, value] of Object.entries({
      organisationName: 'Trust',
      email: 'a@example.org',
      timeZone: 'UTC',
      ...entries,
    })) {
      data.append(name, value)
    }
    return data
  }

  it('ignores bank account rows left empty and reports a half-filled row at its own position', () => {
    const submission = parseWithZod(
      formData({
        'bankAccounts[0].label': 'General',
        'bankAccounts[0].bank': 'Sample Bank',
        'bankAccounts[0].accountName': 'Trust',
        'bankAccounts[0].accountNumber': '1',
        'bankAccounts[1].label': '',
        'bankAccounts[1].bank': '',
        'bankAccounts[2].label': 'Cancer support',
      }),
      { schema: SiteSettingsSchema },
    )
    expect(submission.status).toBe('error')
    const errors = submission.reply().error ?? {}
    expect(errors['bankAccounts[2].bank']).toEqual(['Bank is required'])
    expect(Object.keys(errors).some((key) => key.startsWith('bankAccounts[1]'))).toBe(false)
  })

  it('gives a clear message for each invalid field', () => {
    const submission = parseWithZod(
      formData({
        organisationName: '',
        email: 'nope',
        timeZone: 'Moon/Base',
        foundedYear: '08',
        donationUrl: 'javascript:alert(1)',
      }),
      { schema: SiteSettingsSchema },
    )
    expect(submission.reply().error).toEqual({
      organisationName: ['Organisation name is required'],
      email: ['Enter an e-mail address like info@example.org'],
      timeZone: ['Unknown time zone: use a name like America/Antigua'],
      foundedYear: ['Enter the year as four digits, e.g. 2008'],
      donationUrl: ['Donation page must be a full web address starting with https://'],
    })
  })

  it('accepts a form with only the required fields and empty lists', () => {
    const submission = parseWithZod(formData({}), { schema: SiteSettingsSchema })
    expect(submission.status).toBe('success')
    if (submission.status === 'success') {
      expect(submission.value).toMatchObject({ bankAccounts: [], impactFigures: [], phone: '', timeZone: 'UTC' })
    }
  })
})

describe('the demo content', () => {
  it('gives a new site the first customer’s settings once, never overwriting an administrator’s', async () => {
    await seedDemoContentIfEmpty()
    const demo = await getSiteSettings()
    expect(demo).toEqual(DEMO_SITE_SETTINGS)
    expect(demo.impactFigures.map((f) => f.value)).toEqual(['200+', '40+', '100+', '12+', '100+', '15+'])
    expect(demo.bankAccounts).toHaveLength(2)

    await saveSiteSettings(valid, { actor })
    await seedDemoContentIfEmpty()
    expect(await seedSiteSettings()).toBe(false)
    expect((await getSiteSettings()).organisationName).toBe('Harbour Light Trust')
  })

  it('has demo settings that pass validation', () => {
    expect(SiteSettingsSchema.parse(DEMO_SITE_SETTINGS)).toEqual(DEMO_SITE_SETTINGS)
  })
})
