import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { catchMailDuringFile } from './mail-during-file'
import { waitForHydration } from './hydration'

// The demo distribution takes sign-ups: 40 places per date, an e-mail or a WhatsApp number, and how many come.
const DISTRIBUTION = '/calendar/monthly-food-and-clothing-distribution'
const mail = catchMailDuringFile()

async function cancelFromOwnPage(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Your sign-up' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel my sign-up' }).click()
  await expect(page).toHaveURL(/\/calendar\/monthly-food-and-clothing-distribution\?date=/)
  await expect(page.getByRole('region', { name: 'Sign up', exact: true }).getByText('40 places left.')).toBeVisible()
}

test('the distribution opened over the calendar offers to sign up for its date, in the dialog', async ({ page }) => {
  await page.goto('/calendar')
  await waitForHydration(page)
  await page.getByRole('complementary').getByRole('link', { name: 'Monthly Food and Clothing Distribution' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Monthly Food and Clothing Distribution' })
  const signup = dialog.getByRole('region', { name: 'Sign up', exact: true })
  await expect(signup.getByText('40 places left.')).toBeVisible()
  await expect(signup.getByRole('button', { name: 'Sign up' })).toBeVisible()
})

test('a family signs up for the next distribution, gets the date by e-mail, and cancels from its link', async ({ page }) => {
  await page.goto(DISTRIBUTION)
  const signup = page.getByRole('region', { name: 'Sign up', exact: true })
  await expect(signup.getByText('40 places left.')).toBeVisible()
  await signup.getByLabel('Name', { exact: true }).fill('Grace Family')
  await signup.getByLabel('E-mail (or give a WhatsApp number)').fill('grace@example.com')
  await signup.getByLabel('How many people (you included)').fill('3')
  await signup.getByRole('button', { name: 'Sign up' }).click()

  await expect(page).toHaveURL(/\/signups\/[\w-]{43}$/)
  await expect(page.getByRole('status')).toHaveText('You are signed up. See you there!')
  await expect(page.getByText('Grace Family')).toBeVisible()

  await expect
    .poll(() => mail.mails.filter((m) => m.recipients.includes('grace@example.com')).length, { timeout: 15_000 })
    .toBe(1)
  const [confirmation] = mail.mails
  expect(confirmation.parsed.subject).toBe('You are signed up: Monthly Food and Clothing Distribution')
  expect(confirmation.parsed.attachments[0].contentType).toBe('text/calendar')
  const link = confirmation.parsed.text?.match(/https?:\/\/\S+\/signups\/[\w-]{43}/)?.[0]
  expect(link).toBe(page.url())

  await page.goto(DISTRIBUTION)
  await expect(page.getByRole('region', { name: 'Sign up', exact: true }).getByText('37 places left.')).toBeVisible()
  await page.goto(link!)
  await cancelFromOwnPage(page)
  await expect(page.getByText('Your sign-up has been cancelled.')).toBeVisible()
  // The link leads nowhere once the sign-up is gone.
  await page.goto(link!)
  await expect(page.getByRole('alert')).toHaveText(
    'This sign-up no longer exists: it has been cancelled, or the link is incomplete.',
  )
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a volunteer signs up with a WhatsApp number, is told what is missing first, and cancels', async ({ page }) => {
    await page.goto(DISTRIBUTION)
    const signup = page.getByRole('region', { name: 'Sign up', exact: true })
    await signup.getByLabel('Name', { exact: true }).fill('Vic Volunteer')
    await signup.getByRole('button', { name: 'Sign up' }).click()
    await expect(signup.getByText('Please enter your e-mail address or your WhatsApp number')).toBeVisible()

    await signup.getByLabel('WhatsApp number (or give an e-mail)').fill('+1 268 555 0142')
    await signup.getByRole('button', { name: 'Sign up' }).click()
    await expect(page).toHaveURL(/\/signups\/[\w-]{43}$/)
    await expect(page.getByRole('status')).toHaveText('You are signed up. See you there!')
    await cancelFromOwnPage(page)
  })
})
