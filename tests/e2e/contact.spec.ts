import type { Page } from '@playwright/test'
import { sql } from 'kysely'
import { expect, test } from './fixtures'

const THANK_YOU = 'Thank you for your message. We will get back to you soon!'
const FAILURE = 'Sorry, there was a problem submitting your message. Please try again later.'

/** Messages stored by the server under this sender name (read from the same database file). */
async function storedMessagesFrom(name: string) {
  const { db } = await import('~/platform/db.server')
  return db
    .selectFrom('contactMessages')
    .select(['name', 'email', 'phone', 'subject', 'message'])
    .where('name', '=', name)
    .execute()
}

/** A sender name no other test (or earlier run against the same server) has used. */
function uniqueName(name: string) {
  return `${name} ${crypto.randomUUID().slice(0, 8)}`
}

async function forgetContactRateLimits() {
  const { db } = await import('~/platform/db.server')
  await sql`delete from rate_limits where key like ${'contact-form%'}`.execute(db)
}

test.beforeEach(forgetContactRateLimits)

async function fillMessage(page: Page, name: string) {
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('E-mail', { exact: true }).fill('grace@example.com')
  await page.getByLabel('Phone (optional)', { exact: true }).fill('+1 268 555 0199')
  await page.getByLabel('Subject', { exact: true }).selectOption({ label: 'Volunteering' })
  await page.getByLabel('Message', { exact: true }).fill('I would like to help at the next distribution.')
}

test('the contact page shows how to reach the ministry and links to the ways to support it', async ({ page }) => {
  await page.goto('/contact')
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible()
  const details = page.getByRole('region', { name: 'Get in Touch' })
  await expect(details.getByRole('link', { name: '+1 (268) 555-0100' })).toHaveAttribute('href', 'tel:+12685550100')
  await expect(details.getByRole('link', { name: 'info@example.org' })).toHaveAttribute('href', 'mailto:info@example.org')
  await expect(details.getByText('Antigua', { exact: true })).toBeVisible()
  await expect(details.getByText('Last Saturday of every month, 9:00 AM - 12:00 PM')).toBeVisible()
  await details.getByRole('link', { name: 'Ways to support our mission' }).click()
  await expect(page).toHaveURL(/\/support$/)
})

test('a message is sent with JavaScript: the button says Sending..., then the form gives way to the thank-you', async ({
  page,
}) => {
  const withScript = uniqueName('Grace With Script')
  await page.goto('/contact')
  await fillMessage(page, withScript)

  // Hold the submission so the in-between state can be seen.
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/contact.data*', async (route) => {
    if (route.request().method() === 'POST') await released
    await route.continue()
  })
  await page.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled()
  release()

  await expect(page.getByText(THANK_YOU)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send Message' })).toHaveCount(0)
  await expect(page.getByLabel('Message', { exact: true })).toHaveCount(0)
  expect(await storedMessagesFrom(withScript)).toEqual([
    {
      name: withScript,
      email: 'grace@example.com',
      phone: '+1 268 555 0199',
      subject: 'volunteer',
      message: 'I would like to help at the next distribution.',
    },
  ])
})

test('the form says what is missing or wrong next to each field before sending anything', async ({ page }) => {
  await page.goto('/contact')
  await page.getByRole('button', { name: 'Send Message' }).click()
  await expect(page.getByText('Please enter your name')).toBeVisible()
  await expect(page.getByText('Please enter your e-mail address')).toBeVisible()
  await expect(page.getByText('Please choose a subject')).toBeVisible()
  await expect(page.getByText('Please enter your message')).toBeVisible()
  await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('Please enter your name')

  await page.getByLabel('E-mail', { exact: true }).fill('grace@')
  await expect(page.getByText('Please enter a valid e-mail address')).toBeVisible()
  await page.getByLabel('E-mail', { exact: true }).fill('grace@example.com')
  await expect(page.getByText('Please enter a valid e-mail address')).toHaveCount(0)
  await expect(page.getByText('Please enter your e-mail address')).toHaveCount(0)
})

test('when the connection drops, the form stays filled in and says the message was not sent', async ({ browser }, testInfo) => {
  // Own page: the dropped request is this test's doing, so the browser's network error is expected here.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL })
  const page = await context.newPage()
  const offline = uniqueName('Grace Offline')
  await page.goto('/contact')
  await fillMessage(page, offline)
  await page.route('**/contact.data*', (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
  )
  await page.getByRole('button', { name: 'Send Message' }).click()

  const failure = page.getByRole('alert').filter({ hasText: FAILURE })
  await expect(failure).toBeVisible()
  // Above the button, with everything the visitor typed still there.
  const failureBox = (await failure.boundingBox())!
  const buttonBox = (await page.getByRole('button', { name: 'Send Message' }).boundingBox())!
  expect(failureBox.y).toBeLessThan(buttonBox.y)
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(offline)
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('I would like to help at the next distribution.')
  await expect(page.getByText(THANK_YOU)).toHaveCount(0)
  expect(await storedMessagesFrom(offline)).toEqual([])
  await context.close()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a message is sent and the thank-you is shown', async ({ page }) => {
    const withoutScript = uniqueName('Grace Without Script')
    await page.goto('/contact')
    await fillMessage(page, withoutScript)
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page).toHaveURL(/\/contact\?sent=1/)
    await expect(page.getByText(THANK_YOU)).toBeVisible()
    expect(await storedMessagesFrom(withoutScript)).toHaveLength(1)
  })

  test('the server checks every field and keeps what was typed', async ({ page }) => {
    await page.goto('/contact')
    await page.getByLabel('Name', { exact: true }).fill('   ')
    await page.getByLabel('E-mail', { exact: true }).fill('grace@example') // the browser accepts it; the server does not
    await page.getByLabel('Message', { exact: true }).fill('   ')
    await page.getByRole('button', { name: 'Send Message' }).click()

    await expect(page.getByText('Please enter your name')).toBeVisible()
    await expect(page.getByText('Please enter a valid e-mail address')).toBeVisible()
    await expect(page.getByText('Please choose a subject')).toBeVisible()
    await expect(page.getByText('Please enter your message')).toBeVisible()
    await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('grace@example')
    await expect(page.getByLabel('E-mail', { exact: true })).toHaveAccessibleDescription('Please enter a valid e-mail address')
  })

  test('a filled honeypot looks like success but stores nothing', async ({ page }) => {
    const bot = uniqueName('Spam Bot')
    await page.goto('/contact')
    await fillMessage(page, bot)
    await page.locator('input[name="website"]').fill('https://spam.example', { force: true })
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByText(THANK_YOU)).toBeVisible()
    expect(await storedMessagesFrom(bot)).toEqual([])
  })

  test('a client over the limit is refused and nothing more is stored', async ({ page }) => {
    const repeating = uniqueName('Grace Repeating')
    const form = {
      name: repeating,
      email: 'grace@example.com',
      subject: 'general',
      message: 'Hello again',
    }
    let accepted = 0
    for (;;) {
      const response = await page.request.post('/contact', { form, maxRedirects: 0 })
      if (response.status() === 429) break
      expect(response.status()).toBe(303)
      accepted++
      expect(accepted).toBeLessThan(50)
    }
    expect(accepted).toBeGreaterThan(0)

    await page.goto('/contact')
    await fillMessage(page, repeating)
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.getByText(/^Too many requests/)).toBeVisible()
    await expect(page.getByText(THANK_YOU)).toHaveCount(0)
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(repeating)
    expect(await storedMessagesFrom(repeating)).toHaveLength(accepted)
  })
})

test.afterAll(forgetContactRateLimits)
