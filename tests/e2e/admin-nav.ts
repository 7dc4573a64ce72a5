import type { Page } from '@playwright/test'

/** The admin navigation. */
export function adminNav(page: Page) {
  return page.getByRole('navigation', { name: 'Admin' })
}

/** The admin navigation with its links shown: on a phone they sit behind the Menu button. */
export async function openAdminNav(page: Page) {
  const nav = adminNav(page)
  await page.waitForFunction(() => '__reactRouterDataRouter' in window)
  const menu = nav.locator('details.admin-menu')
  if ((await menu.isVisible()) && !(await menu.evaluate((el) => (el as HTMLDetailsElement).open))) {
    await menu.locator('summary').click()
  }
  return nav
}

/** Closes the phone menu again, so that its panel no longer covers the page. */
export async function closeAdminNav(page: Page) {
  const menu = adminNav(page).locator('details.admin-menu')
  if ((await menu.isVisible()) && (await menu.evaluate((el) => (el as HTMLDetailsElement).open))) {
    await menu.locator('summary').click()
  }
}
