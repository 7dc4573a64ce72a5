import { getSiteSettings } from '../../app/modules/settings/settings.queries.server'
import type { SiteSettings } from '../../app/modules/settings/settings.schema'
import { saveSiteSettings } from '../../app/modules/settings/settings.service.server'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

// Other tests read the demo settings: put back whatever a test here changed.
let before: SiteSettings
test.beforeEach(async () => {
  before = await getSiteSettings()
})
test.afterEach(async () => {
  await saveSiteSettings(before, { actor: { id: 'e2e-cleanup' } })
})

test('an administrator changes the phone number and the footer shows it', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/settings')
  await expect(page.getByRole('heading', { level: 1, name: 'Site settings' })).toBeVisible()
  await page.getByLabel('Phone').fill('+1 (268) 555-0177')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.locator('[data-sonner-toaster]').getByText('Settings saved')).toBeVisible()
  await expect(page.getByLabel('Phone')).toHaveValue('+1 (268) 555-0177')

  await page.goto('/contact')
  const footer = page.getByRole('contentinfo')
  await expect(footer.getByRole('link', { name: '+1 (268) 555-0177' })).toHaveAttribute('href', 'tel:+12685550177')
})

test('bad values get a message next to their field and nothing is saved', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/settings')
  await page.getByLabel('E-mail').fill('office@')
  await page.getByLabel('Time zone').fill('Mars/Olympus_Mons')
  await page.getByLabel('Organisation name').fill('')
  await page.getByRole('button', { name: 'Save settings' }).click()

  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription(/Enter an e-mail address like info@example.org/)
  await expect(page.getByLabel('Time zone')).toHaveAccessibleDescription(/Unknown time zone/)
  await expect(page.getByLabel('Organisation name')).toHaveAccessibleDescription(/Organisation name is required/)
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
  expect(await getSiteSettings()).toEqual(before)
})

test('a summary at the top lists every problem, takes the focus and leads to each field', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/settings')
  await waitForHydration(page)
  await page.getByLabel('Organisation name').fill('')
  await page.getByRole('group', { name: 'Bank account 1' }).getByLabel('Bank').fill('')
  await page.getByRole('button', { name: 'Save settings' }).click()

  const summary = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'There is a problem' }) })
  await expect(summary.getByRole('link')).toHaveText(['Organisation name is required', 'Bank account 1: Bank is required'])
  await expect(page.locator('.error-summary')).toBeFocused()

  await summary.getByRole('link', { name: 'Bank account 1: Bank is required' }).click()
  await expect(page.getByRole('group', { name: 'Bank account 1' }).getByLabel('Bank')).toBeFocused()

  // Fixed fields leave the summary; a second failed save brings the focus back to it.
  await page.getByLabel('Organisation name').fill('Hearts of Hope Ministry')
  await expect(summary.getByRole('link')).toHaveText(['Bank account 1: Bank is required'])
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.locator('.error-summary')).toBeFocused()
  expect(await getSiteSettings()).toEqual(before)
})

test('bank accounts and impact figures can be added and removed', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/settings')
  await waitForHydration(page)
  const accounts = page.getByRole('group', { name: /^Bank account \d+$/ })
  const count = await accounts.count()
  await page.getByRole('button', { name: 'Add a bank account' }).click()
  await expect(accounts).toHaveCount(count + 1)
  const added = page.getByRole('group', { name: `Bank account ${count + 1}` })
  await added.getByLabel('Label').fill('Building Fund')
  await added.getByLabel('Bank').fill('Sample Bank')
  await added.getByLabel('Account name').fill('Building Fund')
  await added.getByLabel('Account number').fill('000-999')
  await page.getByRole('button', { name: 'Remove impact figure 1' }).click()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.locator('[data-sonner-toaster]').getByText('Settings saved')).toBeVisible()

  const saved = await getSiteSettings()
  expect(saved.bankAccounts.at(-1)).toEqual({
    label: 'Building Fund',
    bank: 'Sample Bank',
    accountName: 'Building Fund',
    accountNumber: '000-999',
    notes: '',
  })
  expect(saved.impactFigures).toEqual(before.impactFigures.slice(1))

  // Pages reached inside the site, without a full load, show the saved lists: each page's own
  // loader sends them, not the site's frame.
  await page.goto('/news')
  await waitForHydration(page)
  await page.evaluate(() => Object.assign(window, { stayedOnThePage: true }))
  await page.getByRole('link', { name: 'Support Our Mission' }).click()
  await expect(page).toHaveURL(/\/support$/)
  await expect(page.getByText('000-999')).toBeVisible()
  await page.getByRole('link', { name: before.organisationName }).first().click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByText(saved.impactFigures[0].label, { exact: true })).toBeVisible()
  await expect(page.getByText(before.impactFigures[0].label, { exact: true })).toHaveCount(0)
  expect(await page.evaluate(() => 'stayedOnThePage' in window)).toBe(true)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('an impact figure can still be added, and the save is confirmed', async ({ page, signIn }) => {
    await signIn()
    await page.goto('/admin/settings')
    const figures = page.getByRole('group', { name: /^Impact figure \d+$/ })
    const count = await figures.count()
    await page.getByRole('button', { name: 'Add an impact figure' }).click()
    await expect(figures).toHaveCount(count + 1)
    const added = page.getByRole('group', { name: `Impact figure ${count + 1}` })
    await added.getByLabel('Figure').fill('30+')
    await added.getByLabel('Label').fill('Volunteers')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByRole('status')).toHaveText('Settings saved')
    expect((await getSiteSettings()).impactFigures.at(-1)).toEqual({ value: '30+', label: 'Volunteers', description: '' })
  })

  test('the answer from the server starts with the summary of problems, focused, with links to the fields', async ({
    page,
    signIn,
  }) => {
    await signIn()
    await page.goto('/admin/settings')
    await page.getByLabel('E-mail').fill('office@')
    await page.getByRole('button', { name: 'Save settings' }).click()
    const summary = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'There is a problem' }) })
    const link = summary.getByRole('link', { name: 'Enter an e-mail address like info@example.org' })
    await expect(link).toHaveAttribute('href', '#settings-email')
    await expect(page.locator('.error-summary')).toBeFocused()
    await link.click()
    await expect(page).toHaveURL(/#settings-email$/)
    await expect(page.getByLabel('E-mail')).toBeInViewport()
  })
})
