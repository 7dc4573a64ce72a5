import { createUser, removeUser } from '../../app/modules/users/users.service.server'
import { E2E_ADMIN } from '../../playwright.config'
import { expect, test } from './fixtures'
import { waitForHydration } from './hydration'

test('a marketplace manager who logs out stays on the marketplace, as on the old site', async ({ page }) => {
  const manager = { email: 'lena@example.org', password: 'lenas own password' }
  const { id } = await createUser({ ...manager, name: 'Lena Market', role: 'marketplace' })
  try {
    await page.goto('/marketplace')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Admin Login' }).click()
    const login = page.getByRole('dialog', { name: 'Marketplace Admin' })
    await login.getByLabel('E-mail').fill(manager.email)
    await login.getByLabel('Password').fill(manager.password)
    await login.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page.getByRole('link', { name: 'Add Product' })).toBeVisible()
    await page.getByRole('link', { name: 'Crafts' }).click()
    await expect(page).toHaveURL('/marketplace?category=crafts')
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page.getByRole('button', { name: 'Admin Login' })).toBeVisible()
    await expect(page).toHaveURL('/marketplace?category=crafts')
  } finally {
    await removeUser(id)
  }
})

test('signing out in the admin bar of a public page comes back to that page, without JavaScript too', async ({ browser }) => {
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled })
    const page = await context.newPage()
    await page.goto('/login?redirectTo=%2Fnews')
    await page.getByLabel('E-mail').fill(E2E_ADMIN.email)
    await page.getByLabel('Password').fill(E2E_ADMIN.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page).toHaveURL('/news')
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('button', { name: 'Sign out' }).click()
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0)
    await expect(page).toHaveURL('/news')
    await context.close()
  }
})

test('a sign-out goes back only to a public path of this site', async ({ request }) => {
  for (const [redirectTo, expected] of [
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['/.//evil.example', '/'],
    ['/admin/users', '/'],
    ['/photos?category=Events', '/photos?category=Events'],
  ]) {
    const response = await request.post('/logout', { form: { redirectTo }, maxRedirects: 0 })
    expect(response.status(), redirectTo).toBe(302)
    expect(response.headers()['location'], redirectTo).toBe(expected)
  }
})
