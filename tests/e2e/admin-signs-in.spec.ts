import { createUser, removeUser } from '../../app/modules/users/users.service.server'
import { E2E_ADMIN } from '../../playwright.config'
import { openAdminNav } from './admin-nav'
import { expect, expectNoAxeViolations, test } from './fixtures'

test('an admin signs in, sees the dashboard and signs out', async ({ page }) => {
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin$/)

  await page.getByLabel('E-mail').fill(E2E_ADMIN.email)
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid credentials' })).toBeVisible()

  await page.getByLabel('Password').fill(E2E_ADMIN.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()
  await expect(page).toHaveURL(/\/admin$/)
  const adminNav = await openAdminNav(page)
  await expect(adminNav.getByRole('link', { name: 'Users' })).toBeVisible()

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByText('You have been signed out.')).toBeVisible()

  await page.goto('/admin')
  await expect(page).toHaveURL(/\/login\?/)
})

test('a wrong password is told in an alert that assistive technology can read', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(E2E_ADMIN.email)
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  const alert = page.getByRole('alert').filter({ hasText: 'Invalid credentials' })
  await expect(alert).toBeVisible()
  await expect(alert.getByRole('listitem')).toHaveText('Invalid credentials')
  await expectNoAxeViolations(page)
})

test('an admin adds a marketplace manager and removes them after confirming', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/admin/users')
  await page.getByRole('link', { name: 'Add user' }).click()
  await expect(page.getByRole('heading', { name: 'Add user' })).toBeVisible()

  await page.getByRole('button', { name: 'Add user' }).click()
  await expect(page.getByText('Name is required')).toBeVisible()

  await page.getByLabel('Name').fill('Mia Market')
  await page.getByLabel('E-mail').fill('mia@example.org')
  await page.getByLabel('Role').selectOption({ label: 'Marketplace manager' })
  await page.getByLabel('Initial password').fill('mias own password')
  await page.getByRole('button', { name: 'Add user' }).click()
  await expect(page.getByText('Mia Market can now sign in.')).toBeVisible()
  await expect(page.getByRole('cell', { name: 'mia@example.org' })).toBeVisible()

  await page.getByRole('link', { name: 'Manage Mia Market' }).click()
  await page.getByRole('button', { name: 'Remove user' }).click()
  const dialog = page.getByRole('dialog', { name: 'Are you sure you want to remove Mia Market?' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Remove' }).click()
  await expect(page.getByText('Mia Market was removed.')).toBeVisible()
  await expect(page.getByRole('cell', { name: 'mia@example.org' })).toHaveCount(0)
})

test('a marketplace manager reaches their own pages and is never sent round in circles', async ({ page, signIn }) => {
  const manager = { email: 'marta@example.org', password: 'martas own password' }
  const { id } = await createUser({ ...manager, name: 'Marta Market', role: 'marketplace' })
  try {
    await signIn(manager.email, manager.password)
    await expect(page).toHaveURL(/\/admin\/products$/)
    await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible()
    const adminNav = await openAdminNav(page)
    await expect(adminNav.getByRole('link')).toHaveText(['Products', 'Trash', 'My account', 'Guide', 'View site'])

    // The admin area's front door leads to their own page, not to a refusal.
    await page.goto('/admin')
    await expect(page).toHaveURL(/\/admin\/products$/)

    await page.goto('/admin/users')
    await expect(page.getByRole('heading', { name: 'Access denied', level: 1 })).toBeVisible()
    await page.getByRole('link', { name: 'Go to your admin pages' }).click()
    await expect(page).toHaveURL(/\/admin\/products$/)

    // The lock button of a section they do not manage takes them to their own page, not to sign-in.
    await page.goto('/news')
    await page.getByRole('link', { name: 'Your admin pages' }).click()
    await expect(page).toHaveURL(/\/admin\/products$/)
  } finally {
    await removeUser(id)
  }
})
