import { E2E_SMTP_PORT } from '../../playwright.config'
import { MailCatcher } from '../fixtures/mail-catcher'
import { expect, test } from './fixtures'

const mail = new MailCatcher()
const READER = 'rita.reader@example.org'

test.beforeAll(async () => {
  mail.port = E2E_SMTP_PORT
  await mail.start()
})

test.afterAll(async () => {
  await mail.stop()
})

// Forms post normally: the whole way works on a phone without JavaScript.
test.use({ javaScriptEnabled: false })

async function mailTo(count: number) {
  await expect.poll(() => mail.mails.filter((m) => m.recipients.includes(READER)).length, { timeout: 15_000 }).toBe(count)
  return mail.mails.filter((m) => m.recipients.includes(READER))[count - 1]
}

function pathIn(text: string | undefined, kind: string): string {
  const link = text?.match(new RegExp(`https?://\\S+/subscribe/${kind}/[\\w-]+`))?.[0]
  expect(link).toBeDefined()
  return new URL(link!).pathname
}

test('a visitor signs up on the news page, confirms from the e-mail and unsubscribes', async ({ page }) => {
  await page.goto('/news')
  const signup = page.getByRole('region', { name: 'Get the news by e-mail' })
  await signup.getByLabel('E-mail').fill(READER)
  await signup.getByLabel('First name (optional)').fill('Rita')
  await signup.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByRole('status')).toContainText('Please check your inbox')

  const confirmation = await mailTo(1)
  expect(confirmation.parsed.subject).toBe('Please confirm your subscription')
  await page.goto(pathIn(confirmation.parsed.text, 'confirm'))
  await page.getByRole('button', { name: 'Confirm my subscription' }).click()
  await expect(page.getByRole('status')).toHaveText('You are subscribed. Thank you for staying in touch!')

  // Signing up again answers the same, and the e-mail it brings carries the unsubscribe link.
  await page.goto('/news')
  await signup.getByLabel('E-mail').fill(READER)
  await signup.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByRole('status')).toContainText('Please check your inbox')
  const note = await mailTo(2)

  await page.goto(pathIn(note.parsed.text, 'unsubscribe'))
  await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click()
  await expect(page.getByRole('status')).toHaveText('You are unsubscribed and will get no more e-mails from us.')
})
