import { generate } from 'otplib'
import type { Page } from '@playwright/test'
import { createUser } from '../../app/modules/users/users.service.server'
import { E2E_PORT } from '../../playwright.config'
import { expect, test } from './fixtures'
import { catchMailDuringFile } from './mail-during-file'

const mail = catchMailDuringFile()

const PASSWORD = 'a long enough password'

async function passwordStep(page: Page, email: string, origin = '') {
  await page.goto(`${origin}/login`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByText('You have been signed out.')).toBeVisible()
}

test('a passkey is added on My account, named, used to sign in without the password, and removed', async ({ page }) => {
  await createUser({ email: 'pia@example.org', name: 'Pia', role: 'marketplace', password: PASSWORD })
  // Chromium's virtual authenticator stands in for the device's fingerprint reader.
  const devtools = await page.context().newCDPSession(page)
  await devtools.send('WebAuthn.enable')
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  })
  // A passkey belongs to a domain name, and an IP address is none: the site is opened as localhost.
  const origin = `http://localhost:${E2E_PORT}`
  await passwordStep(page, 'pia@example.org', origin)
  await expect(page).toHaveURL(/\/admin\/products$/)

  await page.goto(`${origin}/admin/account`)
  await page.getByRole('link', { name: 'Set up two-step sign-in' }).click()
  await page.getByLabel('Name for the new passkey').fill('Work laptop')
  await page.getByRole('button', { name: 'Add a passkey' }).click()
  const passkeys = page.getByRole('region', { name: 'Passkeys' })
  await expect(passkeys.getByText('Work laptop')).toBeVisible()
  await expect(passkeys.getByText('not used yet')).toBeVisible()
  // Pia is told, in case it was not her.
  await expect
    .poll(() => mail.mails.find((m) => m.recipients.includes('pia@example.org'))?.parsed.text)
    .toContain('A passkey was added on your account')
  await signOut(page)

  await page.goto(`${origin}/login`)
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page).toHaveURL(/\/admin\/products$/)

  await page.goto(`${origin}/admin/account/two-step`)
  await expect(passkeys.getByText(/last used/)).toBeVisible()
  await passkeys.getByRole('button', { name: 'Remove' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByText('The passkey has been removed.')).toBeVisible()
  await expect(passkeys.getByText('You have no passkeys yet.')).toBeVisible()
})

test('an authenticator app is set up, then asked for after the password; a recovery code works once', async ({ page }) => {
  await createUser({ email: 'tom@example.org', name: 'Tom', role: 'marketplace', password: PASSWORD })
  await passwordStep(page, 'tom@example.org')
  await expect(page).toHaveURL(/\/admin\/products$/)

  await page.goto('/admin/account')
  await page.getByRole('link', { name: 'Set up two-step sign-in' }).click()
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click()
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  const secret = (await page.locator('.two-step-secret').textContent())!.replace(/\s/g, '')
  await page.getByLabel('Code from the app').fill(await generate({ secret }))
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
  const codes = page.getByRole('region', { name: 'Your recovery codes' }).getByRole('listitem')
  await expect(codes).toHaveCount(10)
  const recoveryCode = (await codes.nth(0).textContent())!
  await expect(page.getByText('You have 10 unused recovery codes.')).toBeVisible()
  await signOut(page)

  // The code of the next 30 seconds: the app's current one was spent on the setup.
  await passwordStep(page, 'tom@example.org')
  await expect(page.getByRole('heading', { name: 'Two-step sign-in', level: 1 })).toBeVisible()
  await page.getByLabel('Code').fill('000000')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'That code is not right.' })).toBeVisible()
  await page.getByLabel('Code').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }))
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/admin\/products$/)
  await signOut(page)

  await passwordStep(page, 'tom@example.org')
  await page.getByLabel('Code').fill(recoveryCode)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/admin\/products$/)
  await page.goto('/admin/account/two-step')
  await expect(page.getByText('You have 9 unused recovery codes.')).toBeVisible()
  await signOut(page)

  await passwordStep(page, 'tom@example.org')
  await page.getByLabel('Code').fill(recoveryCode)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'That code is not right.' })).toBeVisible()
})
