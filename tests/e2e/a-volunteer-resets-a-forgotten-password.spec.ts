import { createUser, removeUser } from '../../app/modules/users/users.service.server'
import { E2E_SMTP_PORT } from '../../playwright.config'
import { MailCatcher } from '../fixtures/mail-catcher'
import { expect, test } from './fixtures'

const mail = new MailCatcher()
const VOLUNTEER = {
  name: 'Vera Volunteer',
  email: 'vera@example.org',
  password: 'forgotten long ago',
  role: 'marketplace' as const,
}
let volunteerId: string

test.beforeAll(async () => {
  mail.port = E2E_SMTP_PORT
  await mail.start()
  volunteerId = (await createUser(VOLUNTEER)).id
})

test.afterAll(async () => {
  await removeUser(volunteerId)
  await mail.stop()
})

test('a volunteer who forgot the password chooses a new one from the link in an e-mail', async ({ page }) => {
  await page.goto('/marketplace')
  await page.getByRole('button', { name: 'Admin Login' }).click()
  const dialog = page.getByRole('dialog', { name: 'Marketplace Admin' })
  await dialog.getByRole('link', { name: 'Forgot your password?' }).click()

  await expect(page.getByRole('heading', { name: 'Forgot your password?', level: 1 })).toBeVisible()
  await page.getByLabel('E-mail').fill(VOLUNTEER.email)
  await page.getByRole('button', { name: 'Send me a link' }).click()
  await expect(page.getByRole('status')).toContainText(
    'If an account uses this address, a link to choose a new password is on its way',
  )

  await expect.poll(() => mail.mails.filter((m) => m.recipients.includes(VOLUNTEER.email)).length, { timeout: 10_000 }).toBe(1)
  const link = mail.mails[0].parsed.text?.match(/https?:\/\/\S+\/reset-password\/\S+/)?.[0]
  expect(link).toBeDefined()

  await page.goto(new URL(link!).pathname)
  await expect(page.getByRole('heading', { name: 'Choose a new password', level: 1 })).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill('my brand new password')
  await page.getByLabel('Repeat new password').fill('my brand new password')
  await page.getByRole('button', { name: 'Set new password' }).click()

  await expect(page).toHaveURL(/\/login$/)
  await expect(
    page.getByText('Your new password is set, every device has been signed out and any passkeys removed.'),
  ).toBeVisible()
  await page.getByLabel('E-mail').fill(VOLUNTEER.email)
  await page.getByLabel('Password').fill('my brand new password')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible()
})
