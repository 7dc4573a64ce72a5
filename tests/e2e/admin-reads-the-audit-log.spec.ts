import { closeAdminNav, openAdminNav } from './admin-nav'
import { expect, test } from './fixtures'

test('an administrator finds their sign-in in the audit log and filters it by what happened', async ({ page, signIn }) => {
  await signIn()
  await (await openAdminNav(page)).getByRole('link', { name: 'Audit log' }).click()
  await closeAdminNav(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible()
  const log = page.getByRole('table', { name: 'Audit log, newest first' })
  await expect(log.getByRole('row').nth(1)).toContainText('Signed in')

  await page.getByLabel('What').selectOption({ label: 'Signed in' })
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/[?&]what=sign-in(&|$)/)
  await expect(page.getByLabel('What')).toHaveValue('sign-in')
  const rows = log.getByRole('row')
  // Every row below the header is a sign-in.
  const count = await rows.count()
  expect(count).toBeGreaterThan(1)
  for (let i = 1; i < count; i++) await expect(rows.nth(i)).toContainText('Signed in')

  await page.getByRole('link', { name: 'Clear filters' }).click()
  await expect(page).toHaveURL(/\/admin\/audit$/)
})
