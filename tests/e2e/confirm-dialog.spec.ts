import { createUser } from '../../app/modules/users/users.service.server'
import { expect, test } from './fixtures'

// The confirmation dialog (components/confirm-button.tsx), exercised on the remove-user page.
async function someUser() {
  const email = `helper-${crypto.randomUUID()}@example.org`
  return createUser({ name: 'Volunteer Helper', email, role: 'marketplace', password: 'a long enough password' })
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled })

    test('a delete asks first in a modal dialog; Cancel keeps, confirming removes', async ({ page, signIn }) => {
      const user = await someUser()
      await signIn()
      await page.goto(`/admin/users/${user.id}`)
      const dialog = page.getByRole('dialog', { name: 'Are you sure you want to remove Volunteer Helper?' })
      await expect(dialog).toBeHidden()

      await page.getByRole('button', { name: 'Remove user' }).click()
      await expect(dialog).toBeVisible()
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await expect(dialog).toBeHidden()

      await page.getByRole('button', { name: 'Remove user' }).click()
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()

      await page.getByRole('button', { name: 'Remove user' }).click()
      await dialog.getByRole('button', { name: 'Remove' }).click()
      await expect(page).toHaveURL(/\/admin\/users$/)
      await expect(page.getByRole('main')).not.toContainText('Volunteer Helper')
    })
  })
}
