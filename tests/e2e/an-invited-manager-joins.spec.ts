import { findUserIdByEmail, removeUser } from '../../app/modules/users/users.service.server'
import { E2E_SMTP_PORT } from '../../playwright.config'
import { MailCatcher } from '../fixtures/mail-catcher'
import { expect, test } from './fixtures'

const mail = new MailCatcher()
const INVITED = 'marco.manager@example.org'

test.beforeAll(async () => {
  mail.port = E2E_SMTP_PORT
  await mail.start()
})

test.afterAll(async () => {
  const id = await findUserIdByEmail(INVITED)
  if (id) await removeUser(id)
  await mail.stop()
})

test('an administrator invites a marketplace manager, who joins from the e-mail', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/users')
  await page.getByRole('link', { name: 'Invite someone' }).click()
  await page.getByLabel('E-mail').fill(INVITED)
  await page.getByLabel('Role').selectOption({ label: 'Marketplace manager' })
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText(`An invitation is on its way to ${INVITED}.`)).toBeVisible()
  const waiting = page.getByRole('region', { name: 'Invitations waiting' })
  await expect(waiting.getByRole('cell', { name: INVITED })).toBeVisible()

  await expect.poll(() => mail.mails.filter((m) => m.recipients.includes(INVITED)).length, { timeout: 10_000 }).toBe(1)
  const link = mail.mails[0].parsed.text?.match(/https?:\/\/\S+\/join\/\S+/)?.[0]
  expect(link).toBeDefined()

  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.goto(new URL(link!).pathname)
  await expect(page.getByRole('heading', { name: 'Join the website team', level: 1 })).toBeVisible()
  await expect(page.getByText('You are invited as Marketplace manager.')).toBeVisible()
  await page.getByLabel('Your name').fill('Marco Manager')
  await page.getByLabel('Choose a password').fill('marcos own password')
  await page.getByLabel('Repeat the password').fill('marcos own password')
  await page.getByRole('button', { name: 'Join' }).click()
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible()
})
